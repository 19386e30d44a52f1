import type { DeltaOp } from '@shared/types/chat'
import type { MessageBlock } from '@shared/types/session'
import { chatStreamDelta } from '@shared/contracts/events/chat.events'
import type { EventSink } from '../../bridge/events'
import type { BlockChangeSink } from './blockAccumulator'

export interface DeltaStreamerDeps {
  events: EventSink
  sessionId: string
  messageId: string
  runId: string
  block: (id: string) => MessageBlock | undefined
  /** Writes changed blocks to the projection (SQLite). */
  saveBlocks: (blocks: MessageBlock[]) => void
  deltaIntervalMs?: number
  flushIntervalMs?: number
  log?: (message: string) => void
}

type PendingOp =
  | { op: 'append'; blockId: string; field: 'text' | 'params'; chunks: string[] }
  | { op: 'upsert'; blockId: string }

/**
 * Batches block changes into `chat.stream.delta` events (at most one per interval, numbered)
 * and writes changed blocks to the projection at least every flush interval. Per token it only
 * pushes a chunk onto an array; the cost of a batch grows with what changed, not with the message.
 */
export class DeltaStreamer implements BlockChangeSink {
  private ops: PendingOp[] = []
  private readonly dirtyForProjection = new Set<string>()
  private deltaTimer: NodeJS.Timeout | null = null
  private flushTimer: NodeJS.Timeout | null = null
  private seqValue = 0
  private closed = false
  private lastDeltaAt = Date.now()
  private lastFlushAt = Date.now()

  constructor(private readonly deps: DeltaStreamerDeps) {}

  get seq(): number {
    return this.seqValue
  }

  get runId(): string {
    return this.deps.runId
  }

  append(blockId: string, field: 'text' | 'params', text: string): void {
    const last = this.ops[this.ops.length - 1]
    if (last && last.op === 'append' && last.blockId === blockId && last.field === field)
      last.chunks.push(text)
    else this.ops.push({ op: 'append', blockId, field, chunks: [text] })
    this.dirtyForProjection.add(blockId)
    this.schedule()
  }

  upsert(blockId: string): void {
    // An upsert carries the whole block, so earlier queued changes to it are redundant.
    const last = this.ops[this.ops.length - 1]
    if (!(last && last.op === 'upsert' && last.blockId === blockId)) this.ops.push({ op: 'upsert', blockId })
    this.dirtyForProjection.add(blockId)
    this.schedule()
  }

  /** Sends what is queued now (before a terminal event, or when the renderer must see it). */
  flushDeltas(): void {
    if (this.deltaTimer) clearTimeout(this.deltaTimer)
    this.deltaTimer = null
    this.lastDeltaAt = Date.now()
    if (this.ops.length === 0) return
    const ops: DeltaOp[] = []
    for (const op of this.ops) {
      if (op.op === 'append')
        ops.push({ op: 'append', blockId: op.blockId, field: op.field, text: op.chunks.join('') })
      else {
        const block = this.deps.block(op.blockId)
        if (block) ops.push({ op: 'upsert', block: structuredClone(block) })
      }
    }
    this.ops = []
    if (ops.length === 0) return
    this.seqValue += 1
    this.deps.events.emit(chatStreamDelta, {
      sessionId: this.deps.sessionId,
      messageId: this.deps.messageId,
      runId: this.deps.runId,
      seq: this.seqValue,
      ops
    })
  }

  /** Writes the changed blocks to SQLite. */
  flushProjection(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer)
    this.flushTimer = null
    this.lastFlushAt = Date.now()
    if (this.dirtyForProjection.size === 0) return
    const blocks = [...this.dirtyForProjection]
      .map((id) => this.deps.block(id))
      .filter((b): b is MessageBlock => !!b)
    this.dirtyForProjection.clear()
    try {
      this.deps.saveBlocks(blocks)
    } catch (error) {
      // The final write at the exit carries everything again; a failed interim write loses nothing.
      this.deps.log?.(`projection flush failed: ${String(error)}`)
      for (const block of blocks) this.dirtyForProjection.add(block.id)
    }
  }

  flushAll(): void {
    this.flushDeltas()
    this.flushProjection()
  }

  /** Blocks changed since the last projection write (for the exit write). */
  takeDirty(): string[] {
    const ids = [...this.dirtyForProjection]
    this.dirtyForProjection.clear()
    if (this.flushTimer) clearTimeout(this.flushTimer)
    this.flushTimer = null
    return ids
  }

  close(): void {
    this.closed = true
    if (this.deltaTimer) clearTimeout(this.deltaTimer)
    if (this.flushTimer) clearTimeout(this.flushTimer)
    this.deltaTimer = null
    this.flushTimer = null
  }

  private schedule(): void {
    if (this.closed) return
    // A provider burst can keep the event loop busy past the timers: check the clock as well.
    const now = Date.now()
    if (now - this.lastDeltaAt >= (this.deps.deltaIntervalMs ?? 50)) this.flushDeltas()
    if (now - this.lastFlushAt >= (this.deps.flushIntervalMs ?? 500)) this.flushProjection()
    if (!this.deltaTimer)
      this.deltaTimer = setTimeout(() => this.flushDeltas(), this.deps.deltaIntervalMs ?? 50)
    if (!this.flushTimer)
      this.flushTimer = setTimeout(() => this.flushProjection(), this.deps.flushIntervalMs ?? 500)
  }
}
