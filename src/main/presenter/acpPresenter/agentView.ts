import type { AcpAgentView, AcpRegistryAgent } from '@shared/types/acp'
import type { AcpAgentStore, CustomAgentConfig } from './agentStore'
import type { AgentProcess } from './agentProcess'
import type { AgentOutcome } from './pool'
import { resolveLaunch } from './registry'

/** An agent as Settings shows it: its settings (secrets masked) and its processes. */
export function agentView(parts: {
  agentId: string
  custom: CustomAgentConfig | undefined
  registered: AcpRegistryAgent | undefined
  store: AcpAgentStore
  processes: AgentProcess[]
  outcome: AgentOutcome
}): AcpAgentView {
  const { agentId, custom, registered, outcome } = parts
  const settings = parts.store.settingsOf(agentId, Boolean(custom))
  // The command it would prefer, whatever is installed (acp.checkInstall tells what runs here).
  const preferred = registered
    ? resolveLaunch({ source: 'registry', agent: registered }, { PATH: '' })
    : { command: custom!.command, args: custom!.args }
  return {
    id: agentId,
    name: custom?.name ?? registered!.name,
    description: custom?.description ?? registered!.description,
    source: custom ? 'custom' : 'registry',
    ...(registered?.website ? { website: registered.website } : {}),
    enabled: settings.enabled,
    command: preferred.command,
    args: preferred.args,
    env: custom?.env ?? {},
    envOverrides: settings.envOverrides,
    secretKeys: { env: custom?.secretEnv ?? [], envOverrides: settings.secretOverrides },
    status: {
      processes: parts.processes.map((p) => p.view()),
      ...(outcome.lastError ? { lastError: outcome.lastError } : {}),
      stderrTail: outcome.stderrTail
    }
  }
}
