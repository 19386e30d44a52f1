import type { MemoryPresenter, RememberInput } from '../memoryPresenter'
import type { MemoryPort } from '../toolPresenter/runtimePorts'

/** Every session talks to the one built-in agent until agents become configurable. */
export const DEFAULT_AGENT_ID = 'deepchat'

/** Memory scoped to the agent a session belongs to (subagents share their parent's agent). */
export function createMemoryPort(memory: MemoryPresenter, agentOf: (sessionId: string) => string = () => DEFAULT_AGENT_ID): MemoryPort {
  return {
    isEnabled: (sessionId) => memory.isEnabled(agentOf(sessionId)),
    remember: (sessionId, input) => memory.remember(agentOf(sessionId), input as RememberInput, sessionId),
    recall: (sessionId, query, limit) => memory.recall(agentOf(sessionId), query, limit),
    forget: (sessionId, memoryId) => memory.forget(agentOf(sessionId), memoryId)
  }
}
