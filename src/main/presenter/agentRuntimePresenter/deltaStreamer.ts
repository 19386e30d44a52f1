import type { DeltaOp } from '@shared/types/chat'
import type { MessageBlock } from '@shared/types/session'
import { chatStreamDelta } from '@shared/contracts/events/chat.events'
import type { EventSink } from '../../bridge/events'
import type { BlockChangeSink } from './blockAccumulator'

/** One numbered batch: what is committed to the journal and then sent to the renderer. */
export interface DeltaBatch {
  runId: string
  seq: number
  ops: DeltaOp[]
}

export interface DeltaStreamerDeps {
  events: EventSink
  sessionId: string
  messageId: string
  runId: string
  block: (id: string) => MessageBlock | undefined
  /** Commits a batch to SQLite (the stream journal). Throws when it could not. */
  persist: (batch: DeltaBatch) => void
  deltaIntervalMs?: number
  log?: (message: string) => void
}

type PendingOp =
  | { op: 'append'; blockId: string; field: 'text' | 'params'; chunks: string[] }
  | { op: 'upsert'; blockId: string }

/**
 * Batches block changes into numbered `chat.stream.delta` events, at most one per interval.
 * Each batch is committed to SQLite before it is sent, so what the user has seen is on disk
 * and a kill -9 loses at most the batch in flight. Per token it only pushes a chunk onto an
 * array; the cost of a batch grows with what changed, not with the message.
 */
export class DeltaStreamer implements BlockChangeSink {
  private ops: PendingOp[] = []
  private deltaTimer: NodeJS.Timeout | null = null
  private seqValue = 0
  private closed = false
  private lastDeltaAt = Date.now()
  private persistFailing = false

  constructor(private readonly deps: DeltaStreamerDeps) {}

  /** The last batch sent (0 before the first). */
  get seq(): number {
    return this.seqValue
  }

  get runId(): string {
    return this.deps.runId
  }

  /** Whether changes wait that the renderer has not been sent (only while SQLite refuses them). */
  get hasUnsent(): boolean {
    return this.ops.length > 0
  }

  append(blockId: string, field: 'text' | 'params', text: string): void {
    const last = this.ops[this.ops.length - 1]
    if (last && last.op === 'append' && last.blockId === blockId && last.field === field)
      last.chunks.push(text)
    else this.ops.push({ op: 'append', blockId, field, chunks: [text] })
    this.schedule()
  }

  upsert(blockId: string): void {
    // An upsert carries the whole block, so earlier queued changes to it are redundant.
    const last = this.ops[this.ops.length - 1]
    if (!(last && last.op === 'upsert' && last.blockId === blockId)) this.ops.push({ op: 'upsert', blockId })
    this.schedule()
  }

  /**
   * Commits what is queued as the next batch, then sends it (before a terminal event, or when
   * the renderer must see it now). If SQLite refuses, nothing is sent: the changes stay queued
   * and go out with the next batch that commits.
   */
  flushDeltas(): void {
    if (this.deltaTimer) clearTimeout(this.deltaTimer)
    this.deltaTimer = null
    this.lastDeltaAt = Date.now()
    if (this.ops.length === 0) return
    const ops = this.buildOps()
    if (ops.length === 0) {
      this.ops = []
      return
    }
    const batch: DeltaBatch = { runId: this.deps.runId, seq: this.seqValue + 1, ops }
    try {
      this.deps.persist(batch)
    } catch (error) {
      if (!this.persistFailing) this.deps.log?.(`stream journal write failed: ${String(error)}`)
      this.persistFailing = true
      this.retryLater()
      return
    }
    this.persistFailing = false
    this.ops = []
    this.seqValue = batch.seq
    this.deps.events.emit(chatStreamDelta, {
      sessionId: this.deps.sessionId,
      messageId: this.deps.messageId,
      ...batch
    })
  }

  close(): void {
    this.closed = true
    if (this.deltaTimer) clearTimeout(this.deltaTimer)
    this.deltaTimer = null
  }

  private buildOps(): DeltaOp[] {
    const ops: DeltaOp[] = []
    // An upsert is a snapshot taken now, so it already holds every append to its block queued
    // in this batch (before or after it); sending those too would apply them twice.
    const upserted = new Set(this.ops.filter((op) => op.op === 'upsert').map((op) => op.blockId))
    for (const op of this.ops) {
      if (op.op === 'append') {
        if (upserted.has(op.blockId)) continue
        // Joined once per batch; kept joined so a retried batch does not join again.
        const text = op.chunks.length === 1 ? op.chunks[0] : op.chunks.join('')
        op.chunks = [text]
        ops.push({ op: 'append', blockId: op.blockId, field: op.field, text })
      } else {
        const block = this.deps.block(op.blockId)
        if (block) ops.push({ op: 'upsert', block: structuredClone(block) })
      }
    }
    return ops
  }

  private retryLater(): void {
    if (this.closed || this.deltaTimer) return
    this.deltaTimer = setTimeout(() => this.flushDeltas(), this.deps.deltaIntervalMs ?? 50)
  }

  private schedule(): void {
    if (this.closed) return
    // A provider burst can keep the event loop busy past the timer: check the clock as well.
    if (Date.now() - this.lastDeltaAt >= (this.deps.deltaIntervalMs ?? 50)) this.flushDeltas()
    if (!this.deltaTimer && this.ops.length > 0)
      this.deltaTimer = setTimeout(() => this.flushDeltas(), this.deps.deltaIntervalMs ?? 50)
  }
}
