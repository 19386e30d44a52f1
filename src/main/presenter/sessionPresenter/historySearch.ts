import type Database from 'better-sqlite3'
import { MessageFactFrame } from '@shared/types/messageFacts'
import type { SessionSearchHit } from '@shared/types/session'
import type { TapeSearchOptions } from '@shared/types/tape'
import type { TapePresenter } from '../tapePresenter'
import { buildSnippet, queryWords } from './searchSnippet'
import { BRANCH_EVENT_NAMES, loadBranchTree } from './branches'

const DEFAULT_LIMIT = 20
/** Candidates read per hit wanted: revisions of one message and matches outside its text drop out. */
const CANDIDATES_PER_HIT = 4

interface SessionRow {
  id: string
  tape_id: string
  title: string
}

/** The words a user can see in a message: their own text, or the answer's content blocks. */
export function visibleText(
  payload: unknown
): { messageId: string; role: 'user' | 'assistant'; text: string } | null {
  const frame = MessageFactFrame.safeParse(payload)
  if (!frame.success) return null
  const { messageId, role } = frame.data
  if (role === 'user') {
    const content = frame.data.content as { text?: unknown } | null | undefined
    return { messageId, role, text: typeof content?.text === 'string' ? content.text : '' }
  }
  const text = (frame.data.blocks ?? [])
    .map((b) => b as { kind?: unknown; text?: unknown })
    .filter((b) => b.kind === 'content' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n\n')
  return { messageId, role, text }
}

/**
 * History search for people: message facts only, one hit per message (its best-ranked
 * revision), a snippet of the message's own text around the match — never ids, block kinds
 * or tool arguments — and only messages of the chosen branch, so a hit always opens where the
 * user can see it.
 */
export function searchMessages(
  deps: { db: Database.Database; tape: Pick<TapePresenter, 'searchMany' | 'store'> },
  query: string,
  options: TapeSearchOptions = {}
): SessionSearchHit[] {
  const limit = options.limit ?? DEFAULT_LIMIT
  if (options.kinds && !options.kinds.includes('message')) return []
  const sessions = deps.db
    .prepare(
      "SELECT id, tape_id, title FROM sessions WHERE kind = 'regular' ORDER BY last_activity_at DESC LIMIT 30000"
    )
    .all() as SessionRow[]
  const byTape = new Map(sessions.map((r) => [r.tape_id, r]))
  const candidates = deps.tape.searchMany([...byTape.keys()], query, {
    ...options,
    kinds: ['message'],
    limit: Math.min(100, limit * CANDIDATES_PER_HIT)
  })
  const words = queryWords(query)
  // Only the chosen branch: a replaced variant or a deleted message is not what the chat shows.
  // A chat never retried, edited or deleted in is one straight line where every message shows:
  // a look-up per hit then, instead of building its tree (which read every message of the chat
  // and was most of a search's time over many chats).
  const branchEvents = deps.db.prepare(
    `SELECT 1 FROM tape_entries WHERE tape_id = ? AND kind = 'event'
      AND name IN (${BRANCH_EVENT_NAMES.map(() => '?').join(',')}) LIMIT 1`
  )
  const exists = deps.db.prepare('SELECT 1 FROM messages WHERE id = ? AND session_id = ?')
  const shown = new Map<string, Set<string> | null>()
  const isShown = (sessionId: string, tapeId: string, messageId: string) => {
    let ids = shown.get(sessionId)
    if (ids === undefined) {
      ids = branchEvents.get(tapeId, ...BRANCH_EVENT_NAMES)
        ? new Set(
            loadBranchTree(deps.db, sessionId, tapeId)
              .path()
              .map((n) => n.id)
          )
        : null
      shown.set(sessionId, ids)
    }
    return ids ? ids.has(messageId) : exists.get(messageId, sessionId) !== undefined
  }
  const seen = new Set<string>()
  const hits: SessionSearchHit[] = []
  for (const candidate of candidates) {
    if (hits.length >= limit) break
    const session = byTape.get(candidate.tapeId)!
    const message = visibleText(deps.tape.store.entry(candidate.tapeId, candidate.entryId)?.payload)
    if (!message || seen.has(message.messageId)) continue
    seen.add(message.messageId)
    const snippet = buildSnippet(message.text, words)
    if (!snippet || !isShown(session.id, session.tape_id, message.messageId)) continue
    hits.push({
      sessionId: session.id,
      sessionTitle: session.title,
      messageId: message.messageId,
      role: message.role,
      entryId: candidate.entryId,
      kind: candidate.kind,
      name: candidate.name,
      createdAt: candidate.createdAt,
      summary: snippet.text,
      snippet: snippet.text,
      highlights: snippet.highlights,
      score: candidate.score,
      matchedBy: candidate.matchedBy
    })
  }
  return hits
}
