import { z } from 'zod'
import { defineRoute } from '../define'
import { CompareView, StartCompareInput } from '../../types/compare'

const Id = z.string().min(1).max(100)
const RunIndex = z.number().int().min(0).max(3)

/** Sends one prompt to 2-4 of the user's enabled models, each run on a fork of the chat in its own folder. */
export const compareStart = defineRoute({
  name: 'compare.start',
  input: StartCompareInput,
  output: z.object({ compare: CompareView })
})

/** The chat's comparisons of this app run, oldest first. */
export const compareList = defineRoute({
  name: 'compare.list',
  input: z.object({ sessionId: Id }).strict(),
  output: z.object({ compares: z.array(CompareView) })
})

/** Stops one run; the others go on. */
export const compareStop = defineRoute({
  name: 'compare.stop',
  input: z.object({ compareId: Id, index: RunIndex }).strict(),
  output: z.object({ compare: CompareView })
})

/**
 * Keeps a completed run: its changes apply to the chat's folder (refused as a whole when the
 * folder changed in a conflicting way), its fork merges into the chat, the rest are discarded.
 */
export const compareKeep = defineRoute({
  name: 'compare.keep',
  input: z.object({ compareId: Id, index: RunIndex }).strict(),
  output: z.object({ compare: CompareView })
})

/** Keeps none: every run is stopped and discarded, their folders removed. */
export const compareDiscard = defineRoute({
  name: 'compare.discard',
  input: z.object({ compareId: Id }).strict(),
  output: z.object({ compare: CompareView })
})

/** Answers a run's permission request or question (the card names the run). */
export const compareRespond = defineRoute({
  name: 'compare.respond',
  input: z
    .object({ compareId: Id, index: RunIndex, messageId: Id, interactionId: Id, response: z.unknown() })
    .strict(),
  output: z.object({ accepted: z.literal(true), remaining: z.number().int(), resumed: z.boolean() })
})
