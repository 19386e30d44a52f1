import { z } from 'zod'
import { defineEvent } from '../define'
import { SubagentInteraction, SubagentRunView } from '../../types/subagents'

/** A subagent run changed (task status, preview lines, result). Sent on the parent's session. */
export const subagentsRunUpdated = defineEvent({
  name: 'subagents.run.updated',
  payload: z.object({ parentSessionId: z.string(), run: SubagentRunView })
})

/**
 * A child waits for the user. The parent's window shows the request labelled with the
 * subagent; answering it (`subagents.respond`) resumes the child. An empty list means the
 * child's requests were answered.
 */
export const subagentsInteractionChanged = defineEvent({
  name: 'subagents.interaction.changed',
  payload: SubagentInteraction
})
