import { z } from 'zod'
import { PendingInteraction } from './session'
import { AcpAgentId } from './acp'

/**
 * A kind of subagent a session may start. `self` runs the parent's own agent and model; `acp`
 * hands the task to an ACP agent (`agentId`), whose child chat has that agent as its model.
 */
export const SubagentSlot = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'A slot id is 1-40 letters, digits, "_" or "-"'),
    targetType: z.enum(['self', 'acp']).default('self'),
    /** The agent an `acp` slot hands its tasks to. */
    agentId: AcpAgentId.optional(),
    displayName: z.string().trim().min(1).max(80),
    description: z.string().trim().max(500).default('')
  })
  .strict()
  .refine((slot) => (slot.targetType === 'acp') === Boolean(slot.agentId), {
    message: 'An acp slot names its agent (agentId); a self slot names none',
    path: ['agentId']
  })
export type SubagentSlot = z.infer<typeof SubagentSlot>

export const SubagentSlotConfig = z
  .object({
    enabled: z.boolean(),
    slots: z.array(SubagentSlot).max(20)
  })
  .strict()
  .refine((c) => new Set(c.slots.map((s) => s.id)).size === c.slots.length, 'Slot ids must be unique')
export type SubagentSlotConfig = z.infer<typeof SubagentSlotConfig>

/** At most this many enabled ACP agents are offered as slots on top of a chat's own 20. */
export const MAX_AGENT_SLOTS = 30

/** A chat's slots as the model sees them: its own, then the enabled agents it does not name. */
export const EffectiveSlotConfig = z
  .object({
    enabled: z.boolean(),
    slots: z.array(SubagentSlot).max(20 + MAX_AGENT_SLOTS)
  })
  .strict()

export const SubagentTaskStatus = z.enum([
  'queued',
  'running',
  'waiting_permission',
  'waiting_question',
  'completed',
  'error',
  'cancelled',
  'timeout'
])
export type SubagentTaskStatus = z.infer<typeof SubagentTaskStatus>

export const SubagentRunStatus = SubagentTaskStatus
export type SubagentRunStatus = SubagentTaskStatus

export const SUBAGENT_TERMINAL_STATUSES: readonly SubagentTaskStatus[] = [
  'completed',
  'error',
  'cancelled',
  'timeout'
]

export const SubagentTaskView = z.object({
  index: z.number().int().nonnegative(),
  taskId: z.string(),
  slotId: z.string(),
  title: z.string(),
  status: SubagentTaskStatus,
  childSessionId: z.string().nullable(),
  /** The last few lines the child wrote (live while it runs). */
  preview: z.string(),
  /** The child's final answer, once it completed. */
  result: z.string().nullable(),
  error: z.string().nullable(),
  /** `merged` or `discarded` once the child's fork tape was settled on the parent's tape. */
  tape: z.enum(['open', 'merged', 'discarded']),
  updatedAt: z.number().int()
})
export type SubagentTaskView = z.infer<typeof SubagentTaskView>

export const SubagentRunView = z.object({
  runId: z.string(),
  parentSessionId: z.string(),
  mode: z.enum(['parallel', 'chain']),
  background: z.boolean(),
  status: SubagentRunStatus,
  error: z.string().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  tasks: z.array(SubagentTaskView)
})
export type SubagentRunView = z.infer<typeof SubagentRunView>

/** A child's open permission request or question, shown in the parent's window. */
export const SubagentInteraction = z.object({
  parentSessionId: z.string(),
  runId: z.string(),
  taskId: z.string(),
  childSessionId: z.string(),
  /** Who is asking, e.g. "Self · Summarise the logs". */
  label: z.string(),
  interactions: z.array(PendingInteraction)
})
export type SubagentInteraction = z.infer<typeof SubagentInteraction>
