import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { MessageBlockInput } from '@shared/types/session'
import { dirname } from 'node:path'
import { SessionPresenter } from '../../../src/main/presenter/sessionPresenter'
import { Workspaces } from '../../../src/main/presenter/sessionPresenter/workspaces'
import { openSessionFixture, RecordingSink, type SessionFixture } from './helpers'

const text = (
  id: string,
  value: string,
  status: MessageBlockInput['status'] = 'pending'
): MessageBlockInput => ({
  id,
  kind: 'content',
  status,
  text: value
})
const toolBlock = (
  id: string,
  status: MessageBlockInput['status'],
  response?: string
): MessageBlockInput => ({
  id: `b-${id}`,
  kind: 'tool_call',
  status,
  text: '',
  toolCall: { id, name: 'read', params: `{"path":"${id}.txt"}`, response }
})

describe('message projections and tape facts', () => {
  let fx: SessionFixture
  let sessionId: string
  let tapeId: string
  beforeEach(() => {
    fx = openSessionFixture()
    const session = fx.sessions.create()
    sessionId = session.id
    tapeId = session.tapeId
  })
  afterEach(() => fx.close())

  it('writes a user message and its fact together', () => {
    const message = fx.sessions.messages.appendUserMessage(sessionId, { text: 'hello there' })
    expect(message).toMatchObject({
      role: 'user',
      status: 'sent',
      orderSeq: 1,
      content: { text: 'hello there' }
    })
    const fact = fx.tape.entry(tapeId, message.tapeEntryId!)!
    expect(fact).toMatchObject({
      kind: 'message',
      name: 'message/user',
      provenanceKey: `message:${message.id}:r1`
    })
    expect(fact.payload).toMatchObject({
      messageId: message.id,
      role: 'user',
      content: { text: 'hello there' }
    })
    expect(() => fx.sessions.messages.appendUserMessage(sessionId, { text: '  ' })).toThrow(/empty/)
    expect(() => fx.sessions.messages.appendUserMessage('missing', { text: 'x' })).toThrow(
      expect.objectContaining({ code: 'session_not_found' })
    )
  })

  it('keeps streaming text in the projection only, then settles it as facts', () => {
    const assistant = fx.sessions.messages.createAssistantMessage(sessionId)
    const head = fx.tape.info(tapeId).headEntryId
    fx.sessions.messages.saveStreamingBlocks(assistant.id, [text('c1', 'Hel')])
    const streaming = fx.sessions.messages.saveStreamingBlocks(assistant.id, [
      text('c1', 'Hello'),
      toolBlock('t1', 'pending')
    ])
    expect(streaming.status).toBe('streaming')
    expect(streaming.blocks.map((b) => [b.id, b.text])).toEqual([
      ['c1', 'Hello'],
      ['b-t1', '']
    ])
    expect(fx.tape.info(tapeId).headEntryId).toBe(head) // nothing on the tape yet

    const done = fx.sessions.messages.finalizeAssistantMessage(assistant.id, {
      status: 'sent',
      blocks: [
        text('c1', 'Hello', 'success'),
        toolBlock('t1', 'success', 'file body'),
        text('c2', 'Done.', 'success')
      ],
      metadata: { totalTokens: 42 }
    })
    expect(done.status).toBe('sent')
    expect(done.blocks.map((b) => b.id)).toEqual(['c1', 'b-t1', 'c2'])
    const facts = fx.tape.entries(tapeId).slice(head)
    expect(facts.map((e) => [e.kind, e.name])).toEqual([
      ['tool_call', 'read'],
      ['tool_result', 'read'],
      ['message', 'message/assistant']
    ])
    expect(facts[1].payload).toMatchObject({ toolCallId: 't1', response: 'file body', isError: false })
    expect(facts[2].payload).toMatchObject({ status: 'sent', metadata: { totalTokens: 42 } })
    expect(done.tapeEntryId).toBe(facts[2].entryId)
    expect(() => fx.sessions.messages.saveStreamingBlocks(assistant.id, [text('c3', 'late')])).toThrow(
      expect.objectContaining({ code: 'message_not_streaming' })
    )
    expect(() =>
      fx.sessions.messages.saveStreamingBlocks(assistant.id, [{ id: 'x', kind: 'bogus' } as never])
    ).toThrow()
  })

  it('commits the projection and the facts in one transaction: a failing tape write leaves neither', () => {
    const failingTape = {
      ...fx.tape,
      store: fx.tape.store,
      fork: fx.tape.fork.bind(fx.tape),
      purge: fx.tape.purge.bind(fx.tape),
      searchMany: fx.tape.searchMany.bind(fx.tape),
      append: () => {
        throw new Error('disk full')
      }
    }
    const broken = new SessionPresenter({
      sqlite: fx.sqlite,
      tape: failingTape,
      events: new RecordingSink(),
      workspaces: new Workspaces({ dataDir: dirname(fx.file) })
    })
    expect(() => broken.messages.appendUserMessage(sessionId, { text: 'lost?' })).toThrow('disk full')
    const assistant = fx.sessions.messages.createAssistantMessage(sessionId)
    fx.sessions.messages.saveStreamingBlocks(assistant.id, [text('c1', 'partial')])
    expect(() =>
      broken.messages.finalizeAssistantMessage(assistant.id, {
        status: 'sent',
        blocks: [text('c1', 'all of it', 'success')]
      })
    ).toThrow('disk full')
    const after = fx.sessions.messages.get(assistant.id)!
    expect(after.status).toBe('streaming')
    expect(after.blocks[0].text).toBe('partial')
    expect(fx.sessions.messages.list(sessionId).messages.map((m) => m.role)).toEqual(['assistant'])
  })

  it('pages messages newest first with their blocks', () => {
    for (let i = 1; i <= 7; i++) fx.sessions.messages.appendUserMessage(sessionId, { text: `m${i}` })
    const first = fx.sessions.messages.list(sessionId, { limit: 3 })
    expect(first.messages.map((m) => m.content?.text)).toEqual(['m5', 'm6', 'm7'])
    expect(first.hasMore).toBe(true)
    const second = fx.sessions.messages.list(sessionId, {
      limit: 3,
      beforeOrderSeq: first.messages[0].orderSeq
    })
    expect(second.messages.map((m) => m.content?.text)).toEqual(['m2', 'm3', 'm4'])
    const last = fx.sessions.messages.list(sessionId, { limit: 3, beforeOrderSeq: 2 })
    expect(last).toMatchObject({ hasMore: false })
    expect(last.messages.map((m) => m.content?.text)).toEqual(['m1'])
  })

  it('recovers after a crash: streaming messages become errors with their text kept', () => {
    const streaming = fx.sessions.messages.createAssistantMessage(sessionId)
    fx.sessions.messages.saveStreamingBlocks(streaming.id, [text('c1', 'half an ans')])
    const paused = fx.sessions.messages.createAssistantMessage(sessionId)
    fx.sessions.interactions.pause(paused.id, {
      interactions: [{ kind: 'question', request: { text: 'which?' } }]
    })

    const recovered = fx.sessions.messages.recoverInterrupted()
    expect(recovered.map((m) => m.id)).toEqual([streaming.id])
    const after = fx.sessions.messages.get(streaming.id)!
    expect(after.status).toBe('error')
    expect(after.blocks.map((b) => [b.kind, b.status, b.text])).toEqual([
      ['content', 'error', 'half an ans'],
      ['error', 'error', 'sessionInterrupted']
    ])
    expect(fx.tape.entry(tapeId, after.tapeEntryId!)!.payload.status).toBe('error')
    expect(fx.sessions.messages.get(paused.id)!.status).toBe('awaiting_interaction')
    expect(fx.sessions.messages.recoverInterrupted()).toEqual([])
  })
})
