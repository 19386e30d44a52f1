import type Database from 'better-sqlite3'
import { readStoredBlock, type MessageBlock } from '@shared/types/blocks'
import type { DeltaOp } from '@shared/types/chat'

/** One numbered batch of a run, exactly as the renderer receives it. */
export interface StreamBatch {
  runId: string
  seq: number
  ops: readonly DeltaOp[]
}

/**
 * The append-only log of delta batches of messages that are streaming (table
 * `message_stream_deltas`). A batch is one INSERT, committed before the renderer sees it; a
 * message's rows are folded into its blocks whenever it is read, and deleted by the write
 * that settles it.
 */
export class StreamJournal {
  private readonly insert: Database.Statement
  private readonly markStreaming: Database.Statement
  private readonly remove: Database.Statement

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number
  ) {
    this.insert = db.prepare(
      'INSERT INTO message_stream_deltas (message_id, run_id, seq, ops_json, created_at) VALUES (?, ?, ?, ?, ?)'
    )
    this.markStreaming = db.prepare(
      "UPDATE messages SET status = 'streaming', updated_at = ? WHERE id = ? AND status = 'pending'"
    )
    this.remove = db.prepare('DELETE FROM message_stream_deltas WHERE message_id = ?')
  }

  /** Appends one batch (the caller's transaction makes it one commit with the status change). */
  append(messageId: string, batch: StreamBatch): void {
    const at = this.now()
    this.insert.run(messageId, batch.runId, batch.seq, JSON.stringify(batch.ops), at)
    this.markStreaming.run(at, messageId)
  }

  /** The batches of these messages, oldest first, by message. */
  batchesOf(messageIds: readonly string[]): Map<string, DeltaOp[][]> {
    const result = new Map<string, DeltaOp[][]>()
    if (messageIds.length === 0) return result
    const rows = this.db
      .prepare(
        `SELECT message_id, ops_json FROM message_stream_deltas
         WHERE message_id IN (${messageIds.map(() => '?').join(',')}) ORDER BY id`
      )
      .all(...messageIds) as { message_id: string; ops_json: string }[]
    for (const row of rows) {
      const ops = parseOps(row.ops_json)
      if (!ops) continue
      const list = result.get(row.message_id) ?? []
      list.push(ops)
      result.set(row.message_id, list)
    }
    return result
  }

  clear(messageId: string): void {
    this.remove.run(messageId)
  }
}

/**
 * The blocks after these batches: appends grow a block's text (or a call's arguments), an upsert
 * replaces the block or adds it at the end. Pure; what is stored is read as untrusted.
 */
export function foldBatches(blocks: readonly MessageBlock[], batches: readonly DeltaOp[][]): MessageBlock[] {
  const result = blocks.map((b) => ({ ...b }))
  const index = new Map(result.map((b, i) => [b.id, i]))
  for (const ops of batches) {
    for (const op of ops) {
      if (op.op === 'upsert') {
        const block = readStoredBlock(op.block)
        if (!block) continue
        const at = index.get(block.id)
        if (at === undefined) {
          index.set(block.id, result.length)
          result.push(block)
        } else result[at] = block
        continue
      }
      const at = index.get(op.blockId)
      if (at === undefined) continue
      const block = result[at]
      if (op.field === 'params' && block.kind === 'tool_call')
        result[at] = { ...block, toolCall: { ...block.toolCall, params: block.toolCall.params + op.text } }
      else result[at] = { ...block, text: block.text + op.text }
    }
  }
  return result
}

function parseOps(json: string): DeltaOp[] | null {
  try {
    const value: unknown = JSON.parse(json)
    return Array.isArray(value) ? (value.filter(isOp) as DeltaOp[]) : null
  } catch {
    return null // a row cut short cannot exist (one transaction each); a damaged one is skipped
  }
}

function isOp(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false
  const op = value as { op?: unknown; blockId?: unknown; text?: unknown; block?: unknown }
  if (op.op === 'append') return typeof op.blockId === 'string' && typeof op.text === 'string'
  return op.op === 'upsert' && typeof op.block === 'object' && op.block !== null
}
