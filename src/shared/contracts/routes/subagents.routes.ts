import { z } from 'zod'
import { defineRoute } from '../define'
import {
  EffectiveSlotConfig,
  SubagentInteraction,
  SubagentRunView,
  SubagentSlotConfig
} from '../../types/subagents'

const Id = z.string().min(1).max(100)

/** A session's subagent runs, newest first. */
export const subagentsListRuns = defineRoute({
  name: 'subagents.listRuns',
  input: z.object({ parentSessionId: Id }).strict(),
  output: z.object({ runs: z.array(SubagentRunView) })
})

export const subagentsGetRun = defineRoute({
  name: 'subagents.getRun',
  input: z.object({ runId: Id }).strict(),
  output: z.object({ run: SubagentRunView })
})

/** Cancels every unfinished task of the run (their fork tapes are discarded). */
export const subagentsKillRun = defineRoute({
  name: 'subagents.killRun',
  input: z.object({ runId: Id }).strict(),
  output: z.object({ run: SubagentRunView })
})

/** The children of this session that wait for the user right now, with their labels. */
export const subagentsPendingInteractions = defineRoute({
  name: 'subagents.pendingInteractions',
  input: z.object({ parentSessionId: Id }).strict(),
  output: z.object({ pending: z.array(SubagentInteraction) })
})

/** Answers a child's permission request or question from the parent's window. */
export const subagentsRespond = defineRoute({
  name: 'subagents.respond',
  input: z
    .object({
      parentSessionId: Id,
      childSessionId: Id,
      messageId: Id,
      interactionId: Id,
      response: z.unknown()
    })
    .strict(),
  output: z.object({ accepted: z.literal(true), remaining: z.number().int(), resumed: z.boolean() })
})

export const subagentsGetSlots = defineRoute({
  name: 'subagents.getSlots',
  input: z.object({ sessionId: Id }).strict(),
  output: z.object({ config: EffectiveSlotConfig })
})

export const subagentsSetSlots = defineRoute({
  name: 'subagents.setSlots',
  input: z.object({ sessionId: Id, config: SubagentSlotConfig }).strict(),
  output: z.object({ config: SubagentSlotConfig })
})
