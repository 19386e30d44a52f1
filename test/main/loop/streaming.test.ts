import { describe, expect, it } from 'vitest'
import type { ScriptStep } from '../../fixtures/llm/script'
import { eventsOf, useLoopHarness } from './helpers'
import { chatStreamDelta } from '@shared/contracts/events/chat.events'

const harness = useLoopHarness()

describe('streaming to the renderer', () => {
  it('batches deltas at most every 50 ms while the provider sends a token every few ms', async () => {
    // 40 tokens, 8 ms apart: about 320 ms of streaming, one provider event per token.
    const tokens = Array.from({ length: 40 }, (_, i) => `w${i} `)
    const steps: ScriptStep[] = tokens.flatMap((t) => [
      { type: 'text' as const, text: t },
      { type: 'delay' as const, ms: 8 }
    ])
    const h = await harness([{ steps }])
    const emittedAt: number[] = []
    h.presenters.events.subscribe((name) => {
      if (name === 'chat.stream.delta') emittedAt.push(performance.now())
    })
    const { sessionId, assistantMessageId } = await h.send('stream slowly')
    await h.idle(sessionId)

    const message = h.presenters.sessions.messages.require(assistantMessageId)
    expect(message.status).toBe('sent')
    expect(message.blocks[0]).toMatchObject({ kind: 'content', text: tokens.join('') })
    const deltas = eventsOf(h, chatStreamDelta).filter((d) => d.messageId === assistantMessageId)
    expect(deltas).toHaveLength(emittedAt.length)
    expect(deltas.length).toBeGreaterThan(1) // the text arrived in several batches
    // Timed batches start at least 50 ms apart; only the flush before the terminal event may come
    // sooner. Checked over the whole span (a single gap can look shorter when the machine is busy
    // while one batch is validated, but the span between the first and the last timed batch cannot).
    const timed = emittedAt.slice(0, -1)
    const span = timed[timed.length - 1] - timed[0]
    expect((timed.length - 1) * 50).toBeLessThanOrEqual(span + 50) // one interval of slack for a slow first batch
    const gaps = timed
      .slice(1)
      .map((at, i) => at - timed[i])
      .sort((a, b) => a - b)
    if (gaps.length) expect(gaps[Math.floor(gaps.length / 2)]).toBeGreaterThanOrEqual(45)
    // Every delta names its block and carries the next sequence number.
    expect(deltas.map((d) => d.seq)).toEqual(deltas.map((_, i) => i + 1))
    const blockId = message.blocks[0].id
    for (const delta of deltas) {
      for (const op of delta.ops) expect(op.op === 'append' ? op.blockId : op.block.id).toBe(blockId)
    }
  })
})
