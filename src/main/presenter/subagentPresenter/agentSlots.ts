import { MAX_AGENT_SLOTS, type SubagentSlot, type SubagentSlotConfig } from '@shared/types/subagents'

/** An enabled ACP agent as a subagent slot, offered to every chat that may start subagents. */
export function agentSlot(agent: { id: string; name: string; description: string }): SubagentSlot {
  return {
    id: `acp-${agent.id.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 40),
    targetType: 'acp',
    agentId: agent.id,
    displayName: agent.name.slice(0, 80),
    description:
      `The ACP agent ${agent.name}: its own model and tools, working in this chat's folder inside this chat's permissions. ${agent.description}`
        .trim()
        .slice(0, 500)
  }
}

/** A session's slots plus the agent slots it does not have yet (by id or by agent). */
export function withAgentSlots(
  config: SubagentSlotConfig,
  agents: readonly SubagentSlot[]
): SubagentSlotConfig {
  const ids = new Set(config.slots.map((s) => s.id))
  const agentIds = new Set(config.slots.flatMap((s) => (s.agentId ? [s.agentId] : [])))
  const extra = agents
    .filter((a) => !ids.has(a.id) && !agentIds.has(a.agentId ?? ''))
    .slice(0, MAX_AGENT_SLOTS)
  return extra.length ? { ...config, slots: [...config.slots, ...extra] } : config
}
