import { z } from 'zod'
import { PermissionAnswer } from '@shared/types/blocks'
import { PermissionRequest } from '@shared/types/permission'
import type { RuleDb } from './ruleStore'

/** How a recorded prompt ended. */
export type PromptOutcome = 'allowed' | 'denied' | 'unanswered'

/** One permission prompt the user saw, read back from the tape. */
export interface RecordedPrompt {
  interactionId: string
  sessionId: string
  sessionTitle: string
  at: number
  request: PermissionRequest
  outcome: PromptOutcome
  /** The button the user pressed, when answered. */
  answer?: PermissionAnswer
}

/** The newest prompts a replay or an offer looks at. */
export const PROMPT_HISTORY_LIMIT = 500
/** At most this many of the newest tape rows are searched for them (a replay stays cheap on a long history). */
const SCAN_ROWS = 200_000

const Requested = z.object({
  data: z.object({
    interactionId: z.string(),
    kind: z.literal('permission'),
    request: z.object({ actionType: z.literal('permission'), request: PermissionRequest })
  })
})
const Resolved = z.object({
  data: z.object({
    status: z.string(),
    response: z.object({ decision: PermissionAnswer.optional() }).partial().nullable().optional()
  })
})

interface RequestedRow {
  tape_id: string
  payload_json: string
  created_at: number
  session_id: string | null
  title: string | null
}

/**
 * The permission prompts of every chat, newest first, from the tape's `interaction/requested`
 * and `interaction/resolved` events (read only). Rows that do not parse are skipped.
 */
export class PromptHistory {
  constructor(private readonly sqlite: { db: RuleDb }) {}

  recent(limit = PROMPT_HISTORY_LIMIT): RecordedPrompt[] {
    const rows = this.sqlite.db
      .prepare(
        `SELECT e.tape_id, e.payload_json, e.created_at, s.id AS session_id, s.title
           FROM tape_entries e
           LEFT JOIN tapes t ON t.id = e.tape_id
           LEFT JOIN sessions s ON s.id = t.session_id
          WHERE e.seq > (SELECT COALESCE(MAX(seq), 0) FROM tape_entries) - ?
            AND e.kind = 'event' AND e.name = 'interaction/requested'
          ORDER BY e.seq DESC
          LIMIT ?`
      )
      .all(SCAN_ROWS, limit * 2) as RequestedRow[]
    const resolvedOf = this.sqlite.db.prepare(
      'SELECT payload_json FROM tape_entries WHERE tape_id = ? AND provenance_key = ?'
    )
    const prompts: RecordedPrompt[] = []
    const seen = new Set<string>()
    for (const row of rows) {
      if (prompts.length >= limit) break
      const requested = Requested.safeParse(parseJson(row.payload_json))
      if (!requested.success) continue // a question, or a row this build cannot read
      const { interactionId, request } = requested.data.data
      // A forked chat may carry its parent's events again: one prompt is counted once.
      if (seen.has(interactionId)) continue
      seen.add(interactionId)
      const resolvedRow = resolvedOf.get(row.tape_id, `interaction:${interactionId}:resolved`) as
        { payload_json: string } | undefined
      const resolved = resolvedRow ? Resolved.safeParse(parseJson(resolvedRow.payload_json)) : undefined
      const status = resolved?.success ? resolved.data.data.status : undefined
      const answer = resolved?.success ? (resolved.data.data.response?.decision ?? undefined) : undefined
      prompts.push({
        interactionId,
        sessionId: row.session_id ?? request.request.sessionId,
        sessionTitle: row.title ?? '',
        at: row.created_at,
        request: request.request,
        outcome: status === 'granted' ? 'allowed' : status === 'denied' ? 'denied' : 'unanswered',
        ...(answer ? { answer } : {})
      })
    }
    return prompts
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
