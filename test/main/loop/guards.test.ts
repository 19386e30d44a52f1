import { describe, expect, it } from 'vitest'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FakeResponse, RecordedRequest } from '../../fixtures/llm/fakeLlm'
import { callsReply, eventsOf, call, textReply, toolCall, useLoopHarness } from './helpers'
import { checkRound, MAX_TOOL_CALLS_PER_TURN } from '../../../src/main/presenter/agentRuntimePresenter/guards'
import { LoopRuntimePort } from '../../../src/main/presenter/agentRuntimePresenter/runtimePort'
import {
  chatMessageCreated,
  chatMessagesSuperseded,
  chatStreamFailed
} from '@shared/contracts/events/chat.events'
import { chatEditAndResend, chatGetMessages, chatRetry } from '@shared/contracts/routes/chat.routes'
import { openAiBody } from '../../fixtures/llm/openAiRequest'

const harness = useLoopHarness()

const isSummaryRequest = (request: RecordedRequest) =>
  JSON.stringify(openAiBody(request.body).messages[0]).includes('You compress a conversation')

describe('guards', () => {
  it('stops the turn when the same call repeats three times in a row', async () => {
    const same = () => callsReply(toolCall(`c${Math.random()}`, 'read', { path: 'same.txt' }))
    const h = await harness([same(), same(), same(), textReply('never sent')])
    writeFileSync(join(h.workspace, 'same.txt'), 'unchanging')
    const { sessionId, assistantMessageId } = await h.send('loop forever')
    await h.idle(sessionId)
    expect(h.llm.generationRequests()).toHaveLength(3)
    const message = h.presenters.sessions.messages.require(assistantMessageId)
    expect(message.status).toBe('error')
    expect(message.blocks.filter((b) => b.kind === 'tool_call').map((b) => b.status)).toEqual([
      'success',
      'success',
      'cancelled'
    ])
    expect(message.blocks.at(-1)).toMatchObject({ kind: 'error', data: { code: 'repeated_tool_call' } })
    expect(eventsOf(h, chatStreamFailed)[0].error.message).toMatch(/same arguments 3 times/)
  })

  it('ends the turn without running anything when a round would pass 128 tool calls', async () => {
    const calls = Array.from({ length: MAX_TOOL_CALLS_PER_TURN + 1 }, (_, i) =>
      toolCall(`c${i}`, 'read', { path: `f${i}.txt` })
    )
    const h = await harness([callsReply(...calls), textReply('never sent')])
    const { sessionId, assistantMessageId } = await h.send('read everything')
    await h.idle(sessionId)
    expect(h.llm.generationRequests()).toHaveLength(1)
    const message = h.presenters.sessions.messages.require(assistantMessageId)
    expect(message.status).toBe('error')
    expect(new Set(message.blocks.filter((b) => b.kind === 'tool_call').map((b) => b.status))).toEqual(
      new Set(['cancelled'])
    )
    expect(message.blocks.at(-1)).toMatchObject({ kind: 'error', data: { code: 'tool_call_limit' } })
  })

  it('caps tool calls per turn, counting the calls already made before a resume', () => {
    const earlier = Array.from({ length: MAX_TOOL_CALLS_PER_TURN - 1 }, (_, i) => ({
      id: `b${i}`,
      kind: 'tool_call' as const,
      status: 'success' as const,
      text: '',
      toolCall: { id: `t${i}`, name: 'read', params: JSON.stringify({ path: `f${i}` }) },
      createdAt: 0,
      updatedAt: 0
    }))
    const call = (n: number) => ({
      id: `n${n}`,
      name: 'read',
      arguments: JSON.stringify({ path: `new${n}` }),
      blockId: `nb${n}`
    })
    expect(checkRound(earlier, [call(1)])).toEqual({ ok: true })
    expect(checkRound(earlier, [call(1), call(2)])).toMatchObject({ ok: false, code: 'tool_call_limit' })
  })
})

describe('context', () => {
  it('recovers once from a provider context overflow by compacting, with a model-written summary', async () => {
    let turn2Attempts = 0
    const script = (request: RecordedRequest, index: number): FakeResponse => {
      if (index === 0) return textReply('The secret number is 41.')
      if (isSummaryRequest(request))
        return textReply('## Current Goal\nUser asked about the secret number (41).')
      turn2Attempts++
      if (turn2Attempts === 1)
        return {
          status: 400,
          message: "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens."
        }
      return textReply('Recovered answer.')
    }
    const h = await harness(script)
    const first = await h.send('What is the secret number?')
    await h.idle(first.sessionId)
    const second = await h.send('And plus one?', { sessionId: first.sessionId })
    await h.idle(first.sessionId)
    const bodies = h.bodies()
    expect(bodies).toHaveLength(4) // turn 1, overflow, summary, retry
    const retry = JSON.stringify(bodies[3].messages)
    expect(retry).toContain('User asked about the secret number (41).')
    expect(retry).not.toContain('What is the secret number?')
    expect(retry).toContain('And plus one?')
    expect(h.presenters.sessions.messages.require(second.assistantMessageId).status).toBe('sent')
    const anchors = h.presenters.tape
      .entries(first.sessionId)
      .filter((e) => e.kind === 'anchor')
      .map((e) => e.name)
    expect(anchors).toEqual(['session/start', 'auto_handoff/context_overflow'])
  })

  it('fails clearly when the context still overflows after the one recovery', async () => {
    const script = (request: RecordedRequest, index: number): FakeResponse => {
      if (index === 0) return textReply('first answer')
      if (isSummaryRequest(request)) return textReply('short summary')
      return { status: 400, message: 'prompt is too long: 300000 tokens > 200000 maximum' }
    }
    const h = await harness(script)
    const first = await h.send('hello')
    await h.idle(first.sessionId)
    const second = await h.send('again', { sessionId: first.sessionId })
    await h.idle(first.sessionId)
    expect(h.llm.generationRequests()).toHaveLength(4)
    const message = h.presenters.sessions.messages.require(second.assistantMessageId)
    expect(message.status).toBe('error')
    expect(message.blocks.at(-1)).toMatchObject({ kind: 'error', data: { code: 'context_overflow' } })
  })

  it('compacts at 80 % of the budget from the model context length, keeping the last two turns verbatim', async () => {
    const long = (tag: string) => `${tag} ` + 'lorem ipsum dolor sit amet '.repeat(750) // ~20k chars, ~5k tokens
    let summaries = 0
    const script = (request: RecordedRequest, index: number): FakeResponse => {
      if (isSummaryRequest(request)) {
        summaries++
        return textReply('SUMMARY: turn one covered ALPHA.')
      }
      return textReply(long(['ALPHA', 'BETA', 'GAMMA', 'DELTA'][Math.min(index, 3)] ?? 'X'))
    }
    const h = await harness(script, { contextLength: 20_000, maxOutputTokens: 2_000 })
    const first = await h.send('turn one')
    await h.idle(first.sessionId)
    for (const text of ['turn two', 'turn three']) {
      await h.send(text, { sessionId: first.sessionId })
      await h.idle(first.sessionId)
    }
    expect(summaries).toBe(0)
    await h.send('turn four', { sessionId: first.sessionId })
    await h.idle(first.sessionId)
    expect(summaries).toBe(1)
    const last = JSON.stringify(h.bodies().at(-1)!.messages)
    expect(last).toContain('SUMMARY: turn one covered ALPHA.')
    expect(last).not.toContain('turn one"')
    expect(last).not.toContain('ALPHA lorem')
    expect(last).toContain('turn two')
    expect(last).toContain('turn three')
    const anchor = h.presenters.tape.entries(first.sessionId).find((e) => e.name === 'compaction/auto')!
    expect((anchor.payload.state as { summary: string }).summary).toBe('SUMMARY: turn one covered ALPHA.')
  })

  it('honours a tape handoff: the next turn starts after it, carrying its summary', async () => {
    const h = await harness([textReply('Old answer about KIWI.'), textReply('New answer.')])
    const first = await h.send('tell me about KIWI')
    await h.idle(first.sessionId)
    const port = new LoopRuntimePort({
      events: h.presenters.events,
      tape: h.presenters.tape,
      tapeOf: (id) => h.presenters.sessions.require(id).tapeId
    })
    await port.handoffTape(first.sessionId, 'phase-2', 'We discussed kiwis; next: bananas.')
    await h.send('now bananas', { sessionId: first.sessionId })
    await h.idle(first.sessionId)
    const last = JSON.stringify(h.bodies()[1].messages)
    expect(last).toContain('We discussed kiwis; next: bananas.')
    expect(last).not.toContain('tell me about KIWI')
  })
})

describe('retry and edit', () => {
  it('retry answers the same user message again and drops the old answer from context and list', async () => {
    const h = await harness([textReply('Answer one.'), textReply('Answer two.')])
    const first = await h.send('question')
    await h.idle(first.sessionId)
    const retried = await call(h, chatRetry, {
      sessionId: first.sessionId,
      messageId: first.assistantMessageId
    })
    await h.idle(first.sessionId)
    expect(JSON.stringify(h.bodies()[1].messages)).not.toContain('Answer one.')
    const { messages } = await call(h, chatGetMessages, { sessionId: first.sessionId })
    expect(messages.map((m) => m.id)).toEqual([expect.any(String), retried.assistantMessageId])
    expect(messages[1].blocks[0].text).toBe('Answer two.')
    // Windows hear that the old answer left before they hear of the new one.
    const names = h.events.map((e) => e.name)
    const superseded = names.indexOf('chat.messages.superseded')
    expect(eventsOf(h, chatMessagesSuperseded)).toEqual([
      { sessionId: first.sessionId, messageIds: [first.assistantMessageId], reason: 'retry' }
    ])
    expect(superseded).toBeLessThan(
      h.events.findIndex(
        (e) =>
          e.name === 'chat.message.created' &&
          chatMessageCreated.payload.parse(e.payload).message.id === retried.assistantMessageId
      )
    )
  })

  it('edit-and-resend replaces the prompt and everything after it', async () => {
    const h = await harness([textReply('About cats.'), textReply('About dogs.')])
    const first = await h.send('tell me about cats')
    await h.idle(first.sessionId)
    const { messages: before } = await call(h, chatGetMessages, { sessionId: first.sessionId })
    await call(h, chatEditAndResend, {
      sessionId: first.sessionId,
      messageId: before[0].id,
      text: 'tell me about dogs'
    })
    await h.idle(first.sessionId)
    const body = JSON.stringify(h.bodies()[1].messages)
    expect(body).toContain('tell me about dogs')
    expect(body).not.toContain('cats')
    const { messages } = await call(h, chatGetMessages, { sessionId: first.sessionId })
    expect(messages.map((m) => m.content?.text ?? m.blocks[0]?.text)).toEqual([
      'tell me about dogs',
      'About dogs.'
    ])
    expect(eventsOf(h, chatMessagesSuperseded)).toEqual([
      { sessionId: first.sessionId, messageIds: before.map((m) => m.id), reason: 'edit' }
    ])
  })
})
