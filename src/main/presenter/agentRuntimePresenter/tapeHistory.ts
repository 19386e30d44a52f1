import type { TapeEntry } from '@shared/types/tape'
import { readStoredBlock, type MessageBlock } from '@shared/types/blocks'
import { MessageFactFrame } from '@shared/types/messageFacts'
import { UserMessageContent } from '@shared/types/session'
import { isReconstructionAnchor } from '../tapePresenter/handoff'

/** Marks messages (a retried answer, an edited prompt and what followed) as out of the context. */
export const SUPERSEDED_EVENT = 'chat/superseded'
export const COMPACTION_ANCHOR = 'compaction/auto'
export const OVERFLOW_ANCHOR = 'auto_handoff/context_overflow'

export interface HistoryRecord {
  messageId: string
  orderSeq: number
  role: 'user' | 'assistant'
  status: string
  /** The first tape entry that recorded this message: what anchor cursors compare against. */
  firstEntryId: number
  content: UserMessageContent | null
  blocks: MessageBlock[]
}

export interface TapeHistory {
  /** The latest reconstruction anchor (summary or handoff), if any. */
  summary: { text: string; entryId: number; name: string; cursorEntryId: number } | null
  /** Messages after the anchor's cursor, superseded ones removed, in conversation order. */
  records: HistoryRecord[]
  superseded: Set<string>
}

/**
 * Reads the model-facing history from the tape alone: the latest revision of each message
 * fact, after the latest summary/handoff anchor's cursor. The projection is never consulted.
 */
export function readTapeHistory(entries: readonly TapeEntry[]): TapeHistory {
  const latest = new Map<string, HistoryRecord>()
  const superseded = new Set<string>()
  let summary: TapeHistory['summary'] = null
  for (const entry of entries) {
    if (entry.kind === 'anchor' && isReconstructionAnchor(entry.name)) {
      const state = (entry.payload.state ?? {}) as Record<string, unknown>
      const cursor = typeof state.cursorEntryId === 'number' ? state.cursorEntryId : entry.entryId
      summary = {
        text: typeof state.summary === 'string' ? state.summary : '',
        entryId: entry.entryId,
        name: entry.name!,
        cursorEntryId: cursor
      }
    } else if (entry.kind === 'event' && entry.name === SUPERSEDED_EVENT) {
      const data = (entry.payload.data ?? {}) as { messageIds?: unknown }
      if (Array.isArray(data.messageIds))
        for (const id of data.messageIds) if (typeof id === 'string') superseded.add(id)
    } else if (entry.kind === 'message') {
      const record = toRecord(entry, latest.get(String(entry.payload.messageId))?.firstEntryId)
      if (record) latest.set(record.messageId, record)
    }
  }
  const cursor = summary?.cursorEntryId ?? 0
  const records = [...latest.values()]
    .filter((r) => r.firstEntryId > cursor && !superseded.has(r.messageId))
    .sort((a, b) => a.orderSeq - b.orderSeq)
  return { summary, records, superseded }
}

function toRecord(entry: TapeEntry, firstEntryId: number | undefined): HistoryRecord | null {
  const frame = MessageFactFrame.safeParse(entry.payload)
  if (!frame.success) return null
  const fact = frame.data
  const content = fact.role === 'user' ? UserMessageContent.safeParse(fact.content) : null
  const blocks: MessageBlock[] = []
  for (const raw of fact.blocks ?? []) {
    // A fact's blocks carry no times of their own: they are the fact's.
    const block =
      raw && typeof raw === 'object'
        ? readStoredBlock({ createdAt: entry.createdAt, updatedAt: entry.createdAt, ...raw })
        : null
    if (block) blocks.push(block)
  }
  return {
    messageId: fact.messageId,
    orderSeq: fact.orderSeq,
    role: fact.role,
    status: fact.status,
    firstEntryId: firstEntryId ?? entry.entryId,
    content: content?.success ? content.data : null,
    blocks
  }
}
