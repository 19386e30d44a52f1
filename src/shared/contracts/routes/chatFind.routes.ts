import { z } from 'zod'
import { defineRoute } from '../define'

/** The most hits one search reports (a word in every message of a huge chat stops here). */
export const FIND_MAX_HITS = 5000

/**
 * Find in chat: where `query` occurs (case-insensitive) in the words the open chat shows — the
 * user's text and the answers' text — on the branch the chat shows, oldest first. The window
 * holds only some pages of a long chat, so the search runs here, not in the page.
 */
export const chatFindText = defineRoute({
  name: 'chat.findText',
  input: z.object({ sessionId: z.string().min(1).max(200), query: z.string().min(1).max(500) }).strict(),
  output: z.object({
    /** One row per message with hits, in chat order; `count` occurrences in it. */
    hits: z.array(z.object({ messageId: z.string(), orderSeq: z.number().int(), count: z.number().int() })),
    total: z.number().int(),
    /** More than FIND_MAX_HITS occurrences: counting stopped there. */
    capped: z.boolean()
  })
})
