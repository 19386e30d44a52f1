import type { AcpPresenter } from '../acpPresenter'
import type { AgentRuntimePresenter } from '../agentRuntimePresenter'
import type { LoopRuntimePort } from '../agentRuntimePresenter/runtimePort'
import type { PermissionPresenter } from '../permission'
import type { SessionPresenter } from '../sessionPresenter'
import type { SessionSettings } from '../sessionPresenter/settings'
import type { SubagentPresenter } from '../subagentPresenter'
import type { ToolPresenter } from '../toolPresenter'

/**
 * Presenters hear of each other's lifecycle only through these hooks (no presenter listens to the
 * renderer's event hub). Returns a function that removes them all.
 */
export function wireLifecycle(p: {
  sessions: SessionPresenter
  sessionSettings: SessionSettings
  agentRuntime: AgentRuntimePresenter
  runtimePort: LoopRuntimePort
  permissions: PermissionPresenter
  tools: ToolPresenter
  subagents: SubagentPresenter
  acp: AcpPresenter
}): () => void {
  const { sessions, sessionSettings, agentRuntime, runtimePort, permissions, tools, subagents, acp } = p
  const hooks = [
    // A deleted session takes its run, grants, tool mapping, processes, agent sessions and subagent runs with it.
    sessions.onPurged((sessionIds) => {
      for (const id of sessionIds) {
        agentRuntime.forgetSession(id)
        permissions.clearSession(id)
        void tools.purgeSession(id)
        void acp.forgetChat(id)
      }
      subagents.sessionsPurged(sessionIds)
    }),
    // A stopped parent stops the subagent runs it started.
    agentRuntime.onStopped((sessionId) => subagents.sessionStopped(sessionId)),
    // A subagent task follows its child session through pauses, answers and streaming.
    sessions.onStatusChanged(({ sessionId }) => subagents.sessionChanged(sessionId)),
    sessions.onInteractionsChanged(({ sessionId }) => subagents.sessionChanged(sessionId)),
    agentRuntime.onStreamed((sessionId) => subagents.sessionStreamed(sessionId)),
    // A plan the model wrote (update_plan) lands in its running turn's plan block.
    runtimePort.onPlanPublished((snapshot) => agentRuntime.publishPlan(snapshot)),
    // The user switched a chat's tools or servers: a running turn offers the new list from its next request.
    sessionSettings.onToolsSwitched((sessionId) => tools.markToolsChanged(sessionId))
  ]
  return () => {
    for (const remove of hooks) remove()
  }
}
