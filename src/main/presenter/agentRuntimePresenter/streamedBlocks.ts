import type { MessageBlock } from '@shared/types/session'
import type { EventSink } from '../../bridge/events'
import { BlockAccumulator } from './blockAccumulator'
import { DeltaStreamer, type DeltaBatch } from './deltaStreamer'

export interface StreamedBlocksDeps {
  events: EventSink
  store: { appendStreamBatch(messageId: string, batch: DeltaBatch): void }
  newId: () => string
  deltaIntervalMs?: number
  log?: (message: string) => void
}

/**
 * An assistant message's blocks as a run builds them, each change streamed to the renderer in
 * batches that are committed to the stream journal first. Shared by the chat loop and ACP turns.
 */
export function streamedBlocks(
  deps: StreamedBlocksDeps,
  spec: { session: { id: string }; messageId: string; runId: string; initialBlocks: readonly MessageBlock[] }
): { streamer: DeltaStreamer; acc: BlockAccumulator } {
  const streamer: DeltaStreamer = new DeltaStreamer({
    events: deps.events,
    sessionId: spec.session.id,
    messageId: spec.messageId,
    runId: spec.runId,
    block: (id) => acc.get(id),
    persist: (batch) => deps.store.appendStreamBatch(spec.messageId, batch),
    deltaIntervalMs: deps.deltaIntervalMs,
    log: deps.log
  })
  const acc = new BlockAccumulator(spec.initialBlocks, streamer, deps.newId)
  return { streamer, acc }
}
