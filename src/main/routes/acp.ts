import {
  acpAddAgent,
  acpCheckInstall,
  acpGetSession,
  acpList,
  acpProtocolLog,
  acpRemoveAgent,
  acpSetEnabled,
  acpSetEnvOverrides,
  acpSetSessionMode,
  acpSetSessionModel,
  acpStopAgent,
  acpUpdateAgent
} from '@shared/contracts/routes/acp.routes'
import type { Router } from '../bridge/router'
import type { AcpPresenter } from '../presenter/acpPresenter'

export function registerAcpRoutes(router: Router, { acp }: { acp: AcpPresenter }): void {
  router.handle(acpList, () => ({ agents: acp.listAgents() }))
  router.handle(acpSetEnabled, async ({ agentId, enabled }) => ({
    agent: await acp.setEnabled(agentId, enabled)
  }))
  router.handle(acpAddAgent, async ({ agent }) => ({ agent: await acp.addCustomAgent(agent) }))
  router.handle(acpUpdateAgent, async ({ agentId, patch }) => ({
    agent: await acp.updateCustomAgent(agentId, patch)
  }))
  router.handle(acpRemoveAgent, async ({ agentId }) => {
    await acp.removeCustomAgent(agentId)
    return { removed: true as const }
  })
  router.handle(acpSetEnvOverrides, async ({ agentId, env }) => ({
    agent: await acp.setEnvOverrides(agentId, env)
  }))
  router.handle(acpCheckInstall, async ({ agentId }) => ({ results: await acp.checkInstall(agentId) }))
  router.handle(acpProtocolLog, ({ agentId, afterSeq, limit }) => ({
    entries: acp.protocolLogOf(agentId, { afterSeq, limit })
  }))
  router.handle(acpStopAgent, async ({ agentId }) => ({ agent: await acp.stopAgent(agentId) }))
  router.handle(acpGetSession, ({ chatSessionId, agentId }) => ({
    state: acp.getSessionState(chatSessionId, agentId)
  }))
  router.handle(acpSetSessionMode, async ({ chatSessionId, agentId, modeId }) => ({
    state: await acp.setSessionMode(chatSessionId, agentId, modeId)
  }))
  router.handle(acpSetSessionModel, async ({ chatSessionId, agentId, modelId }) => ({
    state: await acp.setSessionModel(chatSessionId, agentId, modelId)
  }))
}
