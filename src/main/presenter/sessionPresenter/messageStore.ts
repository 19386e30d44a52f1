import type Database from 'better-sqlite3'
import { z } from 'zod'
import { AppError } from '@shared/errors'
import {
  MessageBlock,
  UserMessageContent,
  type MessageBlockInput,
  type MessageRecord,
  type MessageStatus
} from '@shared/types/session'
import type { TapePresenter } from '../tapePresenter'
import { messageFact, toolFacts } from './facts'
import { toBlock, toMessage, type BlockRow, type MessageRow } from './rows'
import { StreamJournal, foldBatches, type StreamBatch } from './streamJournal'
import { BRANCH_EVENT } from './branches'

export type TapeWriter = Pick<TapePresenter, 'append'>

/** Where a new message goes in the chat's tree: after `parentId` (null: at the start). */
export interface Placement {
  parentId: string | null
}

export interface MessageStoreDeps {
  db: Database.Database
  transaction: <T>(fn: () => T) => T
  tape: TapeWriter
  now: () => number
  newId: () => string
  /** Resolves a session id to the tape its facts go to (and checks it exists). */
  tapeOf: (sessionId: string) => string
  touchSession: (sessionId: string, at: number) => void
}

const FINAL_STATUSES = ['sent', 'error', 'cancelled'] as const
export type FinalStatus = (typeof FINAL_STATUSES)[number]

/**
 * The message and block projection the UI reads. Facts go to the tape in the same
 * transaction; text still streaming lives only here (its blocks plus the stream journal of
 * delta batches) until the message finishes or pauses.
 */
export class MessageStore {
  private readonly journal: StreamJournal

  constructor(private readonly deps: MessageStoreDeps) {
    this.journal = new StreamJournal(deps.db, deps.now)
  }

  /** `placement.parentId`: the message this one continues (see branches.ts); absent: the one before it. */
  appendUserMessage(
    sessionId: string,
    content: z.input<typeof UserMessageContent>,
    placement?: Placement
  ): MessageRecord {
    const parsed = UserMessageContent.safeParse(content)
    if (!parsed.success) throw new AppError('invalid_message', z.prettifyError(parsed.error))
    if (!parsed.data.text.trim() && parsed.data.files.length === 0) {
      throw new AppError('invalid_message', 'Message cannot be empty')
    }
    return this.deps.transaction(() => {
      const tapeId = this.deps.tapeOf(sessionId)
      const id = this.insertMessage(sessionId, 'user', 'sent', JSON.stringify(parsed.data), placement)
      const message = this.require(id)
      const [fact] = this.deps.tape.append(tapeId, messageFact(message, 1))
      this.recordFact(id, fact.entryId, 1)
      return this.require(id)
    })
  }

  /** A new assistant message with no blocks yet. Nothing reaches the tape until it settles. */
  createAssistantMessage(sessionId: string, placement?: Placement): MessageRecord {
    return this.deps.transaction(() => {
      this.deps.tapeOf(sessionId)
      return this.require(this.insertMessage(sessionId, 'assistant', 'pending', null, placement))
    })
  }

  /**
   * Upserts the given blocks (by id) while a message streams: cost grows with the blocks that
   * changed, not with the message. Projection only.
   */
  saveStreamingBlocks(messageId: string, blocks: readonly MessageBlockInput[]): MessageRecord {
    return this.deps.transaction(() => {
      const message = this.requireRow(messageId)
      if (message.status !== 'pending' && message.status !== 'streaming') {
        throw new AppError(
          'message_not_streaming',
          `Message ${messageId} is ${message.status}, not streaming`
        )
      }
      this.upsertBlocks(messageId, blocks)
      this.setStatus(messageId, 'streaming')
      return this.require(messageId)
    })
  }

  /**
   * Commits one delta batch of a streaming message, before the renderer is sent it: after a
   * kill -9 the message reads back with everything the user saw. Cost: the batch, not the message.
   */
  appendStreamBatch(messageId: string, batch: StreamBatch): void {
    this.deps.transaction(() => this.journal.append(messageId, batch))
  }

  /**
   * Settles the projection of a message that stops streaming (finish, pause): `blocks` are the
   * run's whole state and replace its journal; without them the journal is folded in.
   */
  settleBlocks(messageId: string, blocks: readonly MessageBlockInput[] | undefined): void {
    if (blocks) this.upsertBlocks(messageId, blocks)
    else if (this.journal.batchesOf([messageId]).has(messageId))
      this.upsertBlocks(messageId, this.require(messageId).blocks)
    this.journal.clear(messageId)
  }

  /**
   * Settles an assistant message: its blocks, finished tool calls and the message itself become
   * tape facts in the same transaction as the projection update.
   */
  finalizeAssistantMessage(
    messageId: string,
    outcome: {
      status: FinalStatus
      blocks?: readonly MessageBlockInput[]
      metadata?: Record<string, unknown>
    }
  ): MessageRecord {
    if (!FINAL_STATUSES.includes(outcome.status)) {
      throw new AppError('invalid_input', `A message cannot finish as ${String(outcome.status)}`)
    }
    return this.deps.transaction(() => {
      const row = this.requireRow(messageId)
      if (row.role !== 'assistant')
        throw new AppError('invalid_input', 'Only assistant messages are finalized')
      this.settleBlocks(messageId, outcome.blocks)
      if (outcome.metadata) this.mergeMetadata(row, outcome.metadata)
      this.setStatus(messageId, outcome.status)
      return this.writeFacts(messageId)
    })
  }

  /** Writes the message's current state to the tape (tool facts first, then the message). */
  writeFacts(messageId: string): MessageRecord {
    const row = this.requireRow(messageId)
    const message = this.require(messageId)
    const tapeId = this.deps.tapeOf(row.session_id)
    const revision = row.revision + 1
    const facts = this.deps.tape.append(tapeId, [...toolFacts(message), messageFact(message, revision)])
    this.recordFact(messageId, facts[facts.length - 1].entryId, revision)
    this.deps.touchSession(row.session_id, this.deps.now())
    return this.require(messageId)
  }

  upsertBlocks(messageId: string, blocks: readonly MessageBlockInput[]): void {
    const now = this.deps.now()
    const existing = new Map(
      (
        this.deps.db
          .prepare('SELECT id, block_index, created_at FROM message_blocks WHERE message_id = ?')
          .all(messageId) as {
          id: string
          block_index: number
          created_at: number
        }[]
      ).map((r) => [r.id, r])
    )
    let nextIndex = Math.max(-1, ...[...existing.values()].map((r) => r.block_index)) + 1
    const upsert = this.deps.db.prepare(`INSERT INTO message_blocks
      (id, message_id, block_index, kind, status, text, tool_call_json, data_json, created_at, updated_at)
      VALUES (@id, @message_id, @block_index, @kind, @status, @text, @tool_call_json, @data_json, @created_at, @updated_at)
      ON CONFLICT (message_id, id) DO UPDATE SET kind = excluded.kind, status = excluded.status, text = excluded.text,
        tool_call_json = excluded.tool_call_json, data_json = excluded.data_json, updated_at = excluded.updated_at`)
    for (const input of blocks) {
      const parsed = MessageBlock.safeParse({ createdAt: now, updatedAt: now, ...input })
      if (!parsed.success) throw new AppError('invalid_block', z.prettifyError(parsed.error))
      const block = parsed.data
      const known = existing.get(block.id)
      const index = known?.block_index ?? nextIndex++
      upsert.run({
        id: block.id,
        message_id: messageId,
        block_index: index,
        kind: block.kind,
        status: block.status,
        text: block.text,
        tool_call_json: block.kind === 'tool_call' ? JSON.stringify(block.toolCall) : null,
        data_json: block.data ? JSON.stringify(block.data) : null,
        created_at: known?.created_at ?? block.createdAt,
        updated_at: now
      })
      existing.set(block.id, {
        id: block.id,
        block_index: index,
        created_at: known?.created_at ?? block.createdAt
      })
    }
  }

  setStatus(messageId: string, status: MessageStatus): void {
    this.deps.db
      .prepare('UPDATE messages SET status = ?, updated_at = ? WHERE id = ?')
      .run(status, this.deps.now(), messageId)
  }

  get(messageId: string): MessageRecord | undefined {
    const row = this.row(messageId)
    return row ? toMessage(row, this.blocksOf([messageId]).get(messageId) ?? []) : undefined
  }

  require(messageId: string): MessageRecord {
    const message = this.get(messageId)
    if (!message) throw new AppError('message_not_found', `No message ${messageId}`)
    return message
  }

  requireRow(messageId: string): MessageRow {
    const row = this.row(messageId)
    if (!row) throw new AppError('message_not_found', `No message ${messageId}`)
    return row
  }

  /** These messages with their blocks, in the order given (unknown ids are skipped). */
  many(messageIds: readonly string[]): MessageRecord[] {
    const out: MessageRecord[] = []
    for (let i = 0; i < messageIds.length; i += 500) {
      const chunk = messageIds.slice(i, i + 500)
      const rows = this.deps.db
        .prepare(`SELECT * FROM messages WHERE id IN (${chunk.map(() => '?').join(',')})`)
        .all(...chunk) as MessageRow[]
      const byId = new Map(rows.map((r) => [r.id, r]))
      const blocks = this.blocksOf(rows.map((r) => r.id))
      for (const id of chunk) {
        const row = byId.get(id)
        if (row) out.push(toMessage(row, blocks.get(id) ?? []))
      }
    }
    return out
  }

  /** The newest page first: `beforeOrderSeq` pages backwards. Returned oldest to newest. */
  list(
    sessionId: string,
    options: { beforeOrderSeq?: number; limit?: number } = {}
  ): { messages: MessageRecord[]; hasMore: boolean } {
    const limit = Math.min(Math.max(options.limit ?? 50, 1), 200)
    const rows = this.deps.db
      .prepare(
        'SELECT * FROM messages WHERE session_id = ? AND order_seq < ? ORDER BY order_seq DESC LIMIT ?'
      )
      .all(sessionId, options.beforeOrderSeq ?? Number.MAX_SAFE_INTEGER, limit + 1) as MessageRow[]
    const hasMore = rows.length > limit
    const page = rows.slice(0, limit).reverse()
    const blocks = this.blocksOf(page.map((r) => r.id))
    return { messages: page.map((r) => toMessage(r, blocks.get(r.id) ?? [])), hasMore }
  }

  /**
   * After a crash: messages that were streaming become `error` with everything their journal
   * holds (text, reasoning, calls cut off mid-arguments) and an error block saying why. Paused
   * messages stay as they are, still answerable.
   */
  recoverInterrupted(): MessageRecord[] {
    return this.deps.transaction(() => {
      const rows = this.deps.db
        .prepare("SELECT id FROM messages WHERE status IN ('pending', 'streaming') ORDER BY created_at")
        .all() as { id: string }[]
      return rows.map(({ id }) => {
        const message = this.require(id) // journal folded in
        const blocks: MessageBlockInput[] = message.blocks.map((b) =>
          b.status === 'pending' || b.status === 'loading' ? { ...b, status: 'error' as const } : b
        )
        blocks.push({
          id: `interrupted-${this.deps.newId()}`,
          kind: 'error',
          status: 'error',
          text: 'sessionInterrupted',
          data: { code: 'interrupted' }
        })
        this.upsertBlocks(id, blocks)
        this.journal.clear(id)
        this.setStatus(id, 'error')
        return this.writeFacts(id)
      })
    })
  }

  private insertMessage(
    sessionId: string,
    role: 'user' | 'assistant',
    status: MessageStatus,
    contentJson: string | null,
    placement?: Placement
  ): string {
    const id = this.deps.newId()
    const now = this.deps.now()
    const last = this.deps.db
      .prepare('SELECT id, order_seq FROM messages WHERE session_id = ? ORDER BY order_seq DESC LIMIT 1')
      .get(sessionId) as { id: string; order_seq: number } | undefined
    const next = (last?.order_seq ?? 0) + 1
    this.deps.db
      .prepare(
        `INSERT INTO messages (id, session_id, order_seq, role, status, content_json, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
      )
      .run(id, sessionId, next, role, status, contentJson, now, now)
    // The parent is written only where it is not simply the message before (branches.ts).
    if (placement && placement.parentId !== (last?.id ?? null))
      this.deps.tape.append(this.deps.tapeOf(sessionId), {
        kind: 'event',
        name: BRANCH_EVENT,
        payload: { name: BRANCH_EVENT, data: { messageId: id, parentId: placement.parentId } }
      })
    this.deps.touchSession(sessionId, now)
    return id
  }

  private recordFact(messageId: string, entryId: number, revision: number): void {
    this.deps.db
      .prepare('UPDATE messages SET tape_entry_id = ?, revision = ? WHERE id = ?')
      .run(entryId, revision, messageId)
  }

  private mergeMetadata(row: MessageRow, metadata: Record<string, unknown>): void {
    let current: Record<string, unknown> = {}
    try {
      current = JSON.parse(row.metadata_json) as Record<string, unknown>
    } catch {
      // A broken stored value is replaced rather than blocking the message from finishing.
    }
    this.deps.db
      .prepare('UPDATE messages SET metadata_json = ? WHERE id = ?')
      .run(JSON.stringify({ ...current, ...metadata }), row.id)
  }

  private row(messageId: string): MessageRow | undefined {
    return this.deps.db.prepare('SELECT * FROM messages WHERE id = ?').get(messageId) as
      MessageRow | undefined
  }

  private blocksOf(messageIds: readonly string[]): Map<string, ReturnType<typeof toBlock>[]> {
    const result = new Map<string, ReturnType<typeof toBlock>[]>()
    if (messageIds.length === 0) return result
    const rows = this.deps.db
      .prepare(
        `SELECT * FROM message_blocks WHERE message_id IN (${messageIds.map(() => '?').join(',')}) ORDER BY message_id, block_index`
      )
      .all(...messageIds) as BlockRow[]
    for (const row of rows) {
      const list = result.get(row.message_id) ?? []
      list.push(toBlock(row))
      result.set(row.message_id, list)
    }
    for (const [messageId, batches] of this.journal.batchesOf(messageIds))
      result.set(messageId, foldBatches(result.get(messageId) ?? [], batches))
    return result
  }
}
