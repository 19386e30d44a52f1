import type Database from 'better-sqlite3'
import { AppError } from '@shared/errors'
import type { SessionRecord } from '@shared/types/session'
import { SESSION_START, type TapeEntryInput } from '@shared/types/tape'
import type { TapePresenter } from '../tapePresenter'
import type { MessageStore } from './messageStore'
import type { BlockRow, MessageRow } from './rows'
import { BRANCH_EVENT_NAMES, loadBranchTree } from './branches'

const SETTLED = ['sent', 'error', 'cancelled']

interface CopyDeps {
  db: Database.Database
  tape: Pick<TapePresenter, 'append' | 'store'>
  messages: MessageStore
  newId: () => string
}

/**
 * Copies a session's history up to one message into a fresh session: the tape entries up to
 * that message's fact (anchors and summaries included, so the context is the same) and the
 * settled messages up to it. Copies point back with provenance; message ids are new, because a
 * message belongs to one session, and the copied facts name the new ids.
 */
export function copyHistory(
  deps: CopyDeps,
  source: SessionRecord,
  target: SessionRecord,
  messageId: string
): void {
  const upTo = deps.messages.requireRow(messageId)
  if (upTo.session_id !== source.id)
    throw new AppError('message_not_found', `Message ${messageId} is not in session ${source.id}`)
  if (!SETTLED.includes(upTo.status) || upTo.tape_entry_id === null) {
    throw new AppError(
      'message_not_settled',
      `Message ${messageId} is ${upTo.status}; fork from a finished message`
    )
  }
  // The branch the message is on, as the user sees it: other variants and deleted messages stay behind.
  const tree = loadBranchTree(deps.db, source.id, source.tapeId)
  const chain = new Set([...tree.ancestors(messageId).map((n) => n.id), messageId])
  const rows = (
    deps.db
      .prepare(
        `SELECT * FROM messages WHERE session_id = ? AND order_seq <= ? AND status IN (${SETTLED.map(() => '?').join(',')})
      ORDER BY order_seq`
      )
      .all(source.id, upTo.order_seq, ...SETTLED) as MessageRow[]
  ).filter((row) => chain.has(row.id))
  const newIds = new Map(rows.map((row) => [row.id, deps.newId()]))
  const newOrder = new Map(rows.map((row, index) => [row.id, index + 1]))

  deps.tape.append(target.tapeId, {
    kind: 'event',
    name: 'session/forked',
    payload: {
      name: 'session/forked',
      data: {
        sourceSessionId: source.id,
        sourceTapeId: source.tapeId,
        messageId,
        sourceEntryId: upTo.tape_entry_id
      }
    },
    provenanceKey: 'session:forked'
  })
  const sourceEntries = deps.tape.store
    .list(source.tapeId, { maxEntryId: upTo.tape_entry_id })
    .filter((entry) => entry.provenanceKey !== 'session:start' || entry.name !== SESSION_START)
    .filter((entry) => typeof entry.payload.messageId !== 'string' || newIds.has(entry.payload.messageId))
    // The copy is one straight line: the source's branch events name messages it does not have.
    .filter((entry) => entry.kind !== 'event' || !BRANCH_EVENT_NAMES.includes(entry.name ?? ''))
  const copies: TapeEntryInput[] = sourceEntries.map((entry) => ({
    kind: entry.kind,
    name: entry.name,
    payload:
      typeof entry.payload.messageId === 'string'
        ? remapMessage(
            entry.payload,
            newIds.get(entry.payload.messageId)!,
            newOrder.get(entry.payload.messageId)!
          )
        : entry.payload,
    meta: { ...entry.meta, forkedFrom: { tapeId: source.tapeId, entryId: entry.entryId } },
    provenanceKey: `session-fork:${source.tapeId}:${entry.entryId}`
  }))
  const written = copies.length ? deps.tape.append(target.tapeId, copies) : []
  const entryMap = new Map(sourceEntries.map((entry, i) => [entry.entryId, written[i].entryId]))

  const insertMessage = deps.db.prepare(`INSERT INTO messages
    (id, session_id, order_seq, role, status, content_json, metadata_json, tape_entry_id, revision, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
  const insertBlock = deps.db.prepare(`INSERT INTO message_blocks
    (id, message_id, block_index, kind, status, text, tool_call_json, data_json, created_at, updated_at)
    VALUES (@id, @message_id, @block_index, @kind, @status, @text, @tool_call_json, @data_json, @created_at, @updated_at)`)
  const blocksOf = deps.db.prepare('SELECT * FROM message_blocks WHERE message_id = ? ORDER BY block_index')
  rows.forEach((row, index) => {
    const id = newIds.get(row.id)!
    const entryId = row.tape_entry_id === null ? null : (entryMap.get(row.tape_entry_id) ?? null)
    insertMessage.run(
      id,
      target.id,
      index + 1,
      row.role,
      row.status,
      row.content_json,
      row.metadata_json,
      entryId,
      row.revision,
      row.created_at,
      row.updated_at
    )
    for (const block of blocksOf.all(row.id) as BlockRow[]) insertBlock.run({ ...block, message_id: id })
  })
}

function remapMessage(
  payload: Record<string, unknown>,
  messageId: string,
  orderSeq: number
): Record<string, unknown> {
  return 'orderSeq' in payload ? { ...payload, messageId, orderSeq } : { ...payload, messageId }
}
