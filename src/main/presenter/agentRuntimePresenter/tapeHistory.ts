import type { TapeEntry } from '@shared/types/tape'
import { readStoredBlock, type MessageBlock } from '@shared/types/blocks'
import { MessageFactFrame } from '@shared/types/messageFacts'
import { UserMessageContent } from '@shared/types/session'
import { isReconstructionAnchor } from '../tapePresenter/handoff'
import { branchTreeFromTape, type BranchTree } from '../sessionPresenter/branches'

export const COMPACTION_ANCHOR = 'compaction/auto'
export const OVERFLOW_ANCHOR = 'auto_handoff/context_overflow'

export interface HistoryRecord {
  messageId: string
  /** The tape the message was recorded on: a fork's view holds its parent's messages too. */
  tapeId: string
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
  /** Messages after the anchor's cursor on the branch `before` continues (default: the chosen one), oldest first. */
  records: HistoryRecord[]
  /** The chat's message tree (variants, deleted messages) as the tape records it. */
  tree: BranchTree
}

/**
 * Reads the model-facing history from the tape alone: the latest revision of each message
 * fact, after the latest summary/handoff anchor's cursor. The projection is never consulted.
 */
export function readTapeHistory(entries: readonly TapeEntry[], before?: string | null): TapeHistory {
  const latest = new Map<string, HistoryRecord>()
  const anchors: Array<NonNullable<TapeHistory['summary']> & { sources: string[] | null }> = []
  for (const entry of entries) {
    if (entry.kind === 'anchor' && isReconstructionAnchor(entry.name)) {
      const state = (entry.payload.state ?? {}) as Record<string, unknown>
      const cursor = typeof state.cursorEntryId === 'number' ? state.cursorEntryId : entry.entryId
      anchors.push({
        text: typeof state.summary === 'string' ? state.summary : '',
        entryId: entry.entryId,
        name: entry.name!,
        cursorEntryId: cursor,
        sources: Array.isArray(state.sourceMessageIds)
          ? state.sourceMessageIds.filter((id): id is string => typeof id === 'string')
          : null
      })
    } else if (entry.kind === 'message') {
      const record = toRecord(entry, latest.get(String(entry.payload.messageId))?.firstEntryId)
      if (record) latest.set(record.messageId, record)
    }
  }
  // Only the branch this turn continues: other variants and deleted messages never reach the model.
  const tree = branchTreeFromTape(entries)
  const branch = before && tree.has(before) ? tree.ancestors(before) : tree.path()
  const onBranch = new Set(branch.map((n) => n.id))
  // A summary of messages this branch does not hold (an edited-away prompt, a deleted answer, a
  // variant not chosen) would carry them back: the newest summary of this branch's own is used.
  const chosen = [...anchors]
    .reverse()
    .find((a) => !a.sources || a.sources.every((id) => onBranch.has(id) || !tree.has(id)))
  const summary = chosen
    ? { text: chosen.text, entryId: chosen.entryId, name: chosen.name, cursorEntryId: chosen.cursorEntryId }
    : null
  const cursor = summary?.cursorEntryId ?? 0
  const records = branch
    .map((n) => latest.get(n.id))
    .filter((r): r is HistoryRecord => r !== undefined && r.firstEntryId > cursor)
  return { summary, records, tree }
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
    tapeId: entry.tapeId,
    orderSeq: fact.orderSeq,
    role: fact.role,
    status: fact.status,
    firstEntryId: firstEntryId ?? entry.entryId,
    content: content?.success ? content.data : null,
    blocks
  }
}
