import { existsSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import bundledRegistry from '../../../../resources/acp-registry.json'
import {
  AcpRegistry,
  type AcpDistribution,
  type AcpInstallState,
  type AcpLauncher,
  type AcpRegistryAgent
} from '@shared/types/acp'
import { findOnPath } from '../sandbox/detect'
import { expandVariables } from '../mcpPresenter/shellEnv'

/**
 * The well-known agents shipped with the app (`resources/acp-registry.json`, bundled into the
 * main build so packaging needs nothing extra). Validated once; a broken file is a build bug.
 */
export function loadBundledRegistry(): AcpRegistry {
  return AcpRegistry.parse(bundledRegistry)
}

/** An agent as the launcher sees it: a registry entry's distribution, or a custom command. */
export type AgentDefinition =
  { source: 'registry'; agent: AcpRegistryAgent } | { source: 'custom'; command: string; args: string[] }

interface Candidate {
  launcher: AcpLauncher
  program: string
  command: string
  args: string[]
}

/** The ways a registry agent can start, best first: its own program, then npx, then uvx. */
export function launchCandidates(distribution: AcpDistribution): Candidate[] {
  const found: Candidate[] = []
  if (distribution.binary) {
    const { command, args } = distribution.binary
    found.push({ launcher: 'binary', program: command, command, args })
  }
  if (distribution.npx) {
    const { package: pkg, args } = distribution.npx
    found.push({ launcher: 'npx', program: 'npx', command: 'npx', args: ['-y', pkg, ...args] })
  }
  if (distribution.uvx) {
    const { package: pkg, args } = distribution.uvx
    found.push({ launcher: 'uvx', program: 'uvx', command: 'uvx', args: [pkg, ...args] })
  }
  return found
}

/**
 * How the agent would start on this machine, and whether it can: the first candidate whose
 * program is on the login-shell PATH wins. `env` expands `~` and `$VAR` in a custom command.
 */
export function resolveLaunch(definition: AgentDefinition, env: Record<string, string>): AcpInstallState {
  if (definition.source === 'custom') return resolveCustom(definition, env)
  const candidates = launchCandidates(definition.agent.distribution)
  const pathEnv = env.PATH ?? ''
  for (const candidate of candidates) {
    const resolvedPath = findOnPath(candidate.program, pathEnv)
    if (!resolvedPath) continue
    const onDemand = candidate.launcher === 'npx' || candidate.launcher === 'uvx'
    return {
      status: onDemand ? 'on_demand' : 'installed',
      launcher: candidate.launcher,
      command: resolvedPath,
      args: candidate.args,
      resolvedPath,
      detail: onDemand
        ? `${candidate.program} fetches ${candidate.args.find((a) => !a.startsWith('-')) ?? 'the package'} at the first start (needs the network)`
        : `${candidate.program} found at ${resolvedPath}`
    }
  }
  const first = candidates[0]
  const wanted = [...new Set(candidates.map((c) => c.program))].join(' or ')
  return {
    status: 'missing',
    launcher: first.launcher,
    command: first.command,
    args: first.args,
    resolvedPath: null,
    detail: `${wanted} is not on your login shell's PATH; install it and check again`
  }
}

function resolveCustom(
  definition: { command: string; args: string[] },
  env: Record<string, string>
): AcpInstallState {
  const command = expandVariables(definition.command, env)
  const args = definition.args.map((arg) => expandVariables(arg, env))
  const isPath = isAbsolute(command) || command.includes('/') || command.includes('\\')
  const resolvedPath = isPath ? (existsSync(command) ? command : null) : findOnPath(command, env.PATH ?? '')
  return {
    status: resolvedPath ? 'installed' : 'missing',
    launcher: 'command',
    command: resolvedPath ?? command,
    args,
    resolvedPath,
    detail: resolvedPath
      ? `${command} found at ${resolvedPath}`
      : `Not found: ${command}${isPath ? '' : " (not on your login shell's PATH)"}`
  }
}
