import { describe, expect, it } from 'vitest'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EventPayload } from '@shared/contracts/define'
import type { MessageBlock } from '@shared/types/session'
import { callsReply, eventsOf, call, textReply, toolCall, toolResults, useLoopHarness } from './helpers'
import {
  chatPlanUpdated,
  chatStreamCompleted,
  chatStreamDelta,
  chatStreamFailed
} from '@shared/contracts/events/chat.events'
import { chatGetMessage } from '@shared/contracts/routes/chat.routes'

const harness = useLoopHarness()

/** Replays a run's deltas onto an empty message, the way the renderer does. */
function replay(deltas: EventPayload<typeof chatStreamDelta>[]): MessageBlock[] {
  const blocks: MessageBlock[] = []
  for (const delta of deltas) {
    for (const op of delta.ops) {
      if (op.op === 'upsert') {
        const at = blocks.findIndex((b) => b.id === op.block.id)
        if (at >= 0) blocks[at] = structuredClone(op.block)
        else blocks.push(structuredClone(op.block))
      } else {
        const block = blocks.find((b) => b.id === op.blockId)!
        if (op.field === 'params' && block.kind === 'tool_call') block.toolCall.params += op.text
        else block.text += op.text
      }
    }
  }
  return blocks
}

describe('a turn', () => {
  it('answers without tools in one request, streams numbered deltas and settles as sent', async () => {
    const h = await harness([textReply('Hello there, how can I help?')])
    const { sessionId, assistantMessageId } = await h.send('Hi')
    await h.idle(sessionId)
    expect(h.llm.generationRequests()).toHaveLength(1)
    const message = h.presenters.sessions.messages.require(assistantMessageId)
    expect(message.status).toBe('sent')
    expect(message.blocks.map((b) => [b.kind, b.status, b.text])).toEqual([
      ['content', 'success', 'Hello there, how can I help?']
    ])
    const deltas = eventsOf(h, chatStreamDelta).filter((d) => d.messageId === assistantMessageId)
    expect(deltas.map((d) => d.seq)).toEqual(deltas.map((_, i) => i + 1))
    expect(replay(deltas).map((b) => [b.kind, b.status, b.text])).toEqual([
      ['content', 'success', 'Hello there, how can I help?']
    ])
    const [completed] = eventsOf(h, chatStreamCompleted)
    expect(completed).toMatchObject({ messageId: assistantMessageId, status: 'sent', seq: deltas.length + 1 })
    expect(h.presenters.sessions.require(sessionId)).toMatchObject({ title: 'Hi', status: 'idle' })
    // The finished turn is on the tape: the next turn's context comes from there.
    const facts = h.presenters.tape.entries(sessionId).filter((e) => e.kind === 'message')
    expect(facts.map((f) => f.payload.role)).toEqual(['user', 'assistant'])
  })

  it('runs N tool rounds in N+1 requests, each result going back to the model', async () => {
    const h = await harness([
      callsReply(toolCall('c1', 'read', { path: 'a.txt' })),
      callsReply(toolCall('c2', 'read', { path: 'b.txt' })),
      callsReply(toolCall('c3', 'glob', { pattern: '*.txt' })),
      textReply('Done reading.')
    ])
    writeFileSync(join(h.workspace, 'a.txt'), 'alpha content')
    writeFileSync(join(h.workspace, 'b.txt'), 'beta content')
    const { sessionId, assistantMessageId } = await h.send('Read the files')
    await h.idle(sessionId)
    const bodies = h.bodies()
    expect(bodies).toHaveLength(4)
    expect(toolResults(bodies[1]).map((r) => r.tool_call_id)).toEqual(['c1'])
    expect(toolResults(bodies[1])[0].content).toContain('alpha content')
    expect(toolResults(bodies[3]).map((r) => r.tool_call_id)).toEqual(['c1', 'c2', 'c3'])
    const message = h.presenters.sessions.messages.require(assistantMessageId)
    expect(message.status).toBe('sent')
    expect(message.blocks.filter((b) => b.kind === 'tool_call').map((b) => b.status)).toEqual([
      'success',
      'success',
      'success'
    ])
    expect(message.blocks.at(-1)).toMatchObject({ kind: 'content', text: 'Done reading.' })
    const toolFacts = h.presenters.tape.entries(sessionId).filter((e) => e.kind === 'tool_result')
    expect(toolFacts.map((f) => f.payload.toolCallId)).toEqual(['c1', 'c2', 'c3'])
  })

  it('runs a read-only batch in parallel and keeps the model order of the results', async () => {
    const h = await harness([
      callsReply(
        toolCall('r1', 'read', { path: 'one.txt' }),
        toolCall('r2', 'grep', { pattern: 'needle' }),
        toolCall('r3', 'read', { path: 'three.txt' })
      ),
      textReply('ok')
    ])
    writeFileSync(join(h.workspace, 'one.txt'), 'first file')
    writeFileSync(join(h.workspace, 'three.txt'), 'third file with needle')
    const { sessionId } = await h.send('batch')
    await h.idle(sessionId)
    const results = toolResults(h.bodies()[1])
    expect(results.map((r) => r.tool_call_id)).toEqual(['r1', 'r2', 'r3'])
    expect(results[0].content).toContain('first file')
    expect(results[1].content).toContain('three.txt')
    expect(results[2].content).toContain('third file')
  })

  it('keeps the partial text when the provider fails mid-stream', async () => {
    const h = await harness([
      {
        steps: [
          { type: 'text', text: ['Partial ', 'answer'] },
          { type: 'stream_error', errorType: 'server_error', message: 'upstream exploded' }
        ]
      }
    ])
    const { sessionId, assistantMessageId } = await h.send('go')
    await h.idle(sessionId)
    const message = h.presenters.sessions.messages.require(assistantMessageId)
    expect(message.status).toBe('error')
    expect(message.blocks[0]).toMatchObject({ kind: 'content', text: 'Partial answer' })
    expect(message.blocks.at(-1)).toMatchObject({ kind: 'error', data: { code: 'provider_error' } })
    expect(eventsOf(h, chatStreamFailed)[0]).toMatchObject({
      status: 'error',
      error: { code: 'provider_error' }
    })
    expect(h.presenters.sessions.require(sessionId).status).toBe('error')
    const view = await call(h, chatGetMessage, { messageId: assistantMessageId })
    expect(view.message.blocks[0].text).toBe('Partial answer')
  })

  it('keeps one plan block per message, upserted by update_plan, and emits chat.plan.updated', async () => {
    const h = await harness([
      callsReply(
        toolCall('p1', 'update_plan', {
          plan: [
            { step: 'Look', status: 'in_progress' },
            { step: 'Fix', status: 'pending' }
          ]
        })
      ),
      callsReply(
        toolCall('p2', 'update_plan', {
          plan: [
            { step: 'Look', status: 'completed' },
            { step: 'Fix', status: 'in_progress' }
          ]
        })
      ),
      textReply('Working on the fix.')
    ])
    const { sessionId, assistantMessageId } = await h.send('plan it')
    await h.idle(sessionId)
    const message = h.presenters.sessions.messages.require(assistantMessageId)
    const plans = message.blocks.filter((b) => b.kind === 'plan')
    expect(plans).toHaveLength(1)
    expect(plans[0].data).toMatchObject({
      revision: 2,
      entries: [
        { step: 'Look', status: 'completed' },
        { step: 'Fix', status: 'in_progress' }
      ]
    })
    expect(eventsOf(h, chatPlanUpdated).map((e) => e.plan.revision)).toEqual([1, 2])
  })

  it('keeps reasoning and answer in separate blocks, in order', async () => {
    // openai-compatible reads `reasoning_content` from the chat completions wire.
    const h = await harness(
      [
        {
          steps: [
            { type: 'reasoning', text: ['Let me ', 'think.'] },
            { type: 'text', text: ['The ', 'answer.'] }
          ]
        }
      ],
      { providerKind: 'openai-compatible' }
    )
    const { sessionId, assistantMessageId } = await h.send('think first')
    await h.idle(sessionId)
    const message = h.presenters.sessions.messages.require(assistantMessageId)
    expect(message.blocks.map((b) => [b.kind, b.text, b.status])).toEqual([
      ['reasoning_content', 'Let me think.', 'success'],
      ['content', 'The answer.', 'success']
    ])
  })
})
