import { describe, expect, it } from 'vitest'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  callsReply,
  eventsOf,
  call,
  tempDir,
  textReply,
  toolCall,
  toolResults,
  useLoopHarness
} from './helpers'
import { chatStreamPaused } from '@shared/contracts/events/chat.events'
import { chatRespondToolInteraction, chatSendMessage } from '@shared/contracts/routes/chat.routes'

const harness = useLoopHarness()

describe('pause and resume', () => {
  it('pauses on a write outside the workspace, resumes the same message after allow once', async () => {
    const outside = tempDir()
    const target = join(outside, 'note.txt')
    const h = await harness([
      callsReply(toolCall('w1', 'write', { path: target, content: 'hello' })),
      textReply('Written.')
    ])
    const { sessionId, assistantMessageId } = await h.send('write a note')
    await h.idle(sessionId)
    expect(h.llm.generationRequests()).toHaveLength(1)
    const paused = h.presenters.sessions.messages.require(assistantMessageId)
    expect(paused.status).toBe('awaiting_interaction')
    expect(h.presenters.sessions.require(sessionId).status).toBe('awaiting_interaction')
    const toolCallBlock = paused.blocks.find((b) => b.kind === 'tool_call')!
    expect(toolCallBlock.status).toBe('pending') // waiting, never a fake success
    const action = paused.blocks.find((b) => b.kind === 'action')!
    expect(action).toMatchObject({
      status: 'pending',
      data: { actionType: 'permission', toolCallId: 'w1', request: { type: 'write' } }
    })
    const [pending] = h.presenters.sessions.interactions.list({ sessionId, status: 'pending' })
    expect(pending).toMatchObject({ kind: 'permission', messageId: assistantMessageId, blockId: action.id })
    expect(eventsOf(h, chatStreamPaused)[0]).toMatchObject({
      messageId: assistantMessageId,
      interactions: [{ id: pending.id }]
    })
    expect(existsSync(target)).toBe(false)

    const answer = await call(h, chatRespondToolInteraction, {
      sessionId,
      messageId: assistantMessageId,
      interactionId: pending.id,
      response: { kind: 'permission', decision: 'allow_once' }
    })
    expect(answer).toEqual({ accepted: true, remaining: 0, resumed: true })
    await h.idle(sessionId)
    expect(readFileSync(target, 'utf8')).toBe('hello')
    const bodies = h.bodies()
    expect(bodies).toHaveLength(2)
    expect(toolResults(bodies[1])).toHaveLength(1)
    const done = h.presenters.sessions.messages.require(assistantMessageId)
    expect(done.status).toBe('sent')
    expect(done.blocks.map((b) => [b.kind, b.status])).toEqual([
      ['tool_call', 'success'],
      ['action', 'granted'],
      ['content', 'success']
    ])
    expect(h.presenters.sessions.require(sessionId).status).toBe('idle')
  })

  it('runs the calls of a batch that need nothing before pausing for the one that does; results go back in model order', async () => {
    const target = join(tempDir(), 'mixed.txt')
    const h = await harness([
      callsReply(
        toolCall('w1', 'write', { path: target, content: 'later' }),
        toolCall('r1', 'read', { path: 'a.txt' })
      ),
      textReply('Both handled.')
    ])
    writeFileSync(join(h.workspace, 'a.txt'), 'alpha content')
    const { sessionId, assistantMessageId } = await h.send('write and read')
    await h.idle(sessionId)
    expect(h.llm.generationRequests()).toHaveLength(1)
    const paused = h.presenters.sessions.messages.require(assistantMessageId)
    expect(paused.status).toBe('awaiting_interaction')
    const calls = paused.blocks.filter((b) => b.kind === 'tool_call')
    expect(calls.map((b) => [b.toolCall?.id, b.status])).toEqual([
      ['w1', 'pending'],
      ['r1', 'success']
    ])
    expect(calls[1].toolCall?.response).toContain('alpha content') // the read ran before the pause
    expect(existsSync(target)).toBe(false)
    const pending = h.presenters.sessions.interactions.list({ sessionId, status: 'pending' })
    expect(pending.map((i) => i.toolCallId)).toEqual(['w1'])
    await call(h, chatRespondToolInteraction, {
      sessionId,
      messageId: assistantMessageId,
      interactionId: pending[0].id,
      response: { kind: 'permission', decision: 'allow_once' }
    })
    await h.idle(sessionId)
    expect(readFileSync(target, 'utf8')).toBe('later')
    const results = toolResults(h.bodies()[1])
    expect(results.map((r) => r.tool_call_id)).toEqual(['w1', 'r1'])
    expect(results[1].content).toContain('alpha content')
    expect(h.presenters.sessions.messages.require(assistantMessageId).status).toBe('sent')
  })

  it('sends the model "User denied the request." as an error result on deny', async () => {
    const target = join(tempDir(), 'nope.txt')
    const h = await harness([
      callsReply(toolCall('w1', 'write', { path: target, content: 'x' })),
      textReply('Understood, I will not write it.')
    ])
    const { sessionId, assistantMessageId } = await h.send('write')
    await h.idle(sessionId)
    const [pending] = h.presenters.sessions.interactions.list({ sessionId, status: 'pending' })
    await call(h, chatRespondToolInteraction, {
      sessionId,
      messageId: assistantMessageId,
      interactionId: pending.id,
      response: { kind: 'permission', decision: 'deny' }
    })
    await h.idle(sessionId)
    expect(existsSync(target)).toBe(false)
    const [result] = toolResults(h.bodies()[1])
    expect(result).toEqual({ tool_call_id: 'w1', content: 'User denied the request.' })
    const message = h.presenters.sessions.messages.require(assistantMessageId)
    expect(message.status).toBe('sent')
    expect(message.blocks.find((b) => b.kind === 'tool_call')).toMatchObject({
      status: 'error',
      toolCall: { response: 'User denied the request.', isError: true }
    })
    expect(message.blocks.find((b) => b.kind === 'action')!.status).toBe('denied')
    const fact = h.presenters.tape.entries(sessionId).find((e) => e.kind === 'tool_result')!
    expect(fact.payload).toMatchObject({ toolCallId: 'w1', isError: true })
  })

  it('accepts two answers in reverse order and resumes only after the last', async () => {
    const dir = tempDir()
    const h = await harness([
      callsReply(
        toolCall('a', 'write', { path: join(dir, 'a.txt'), content: 'A' }),
        toolCall('b', 'write', { path: join(dir, 'b.txt'), content: 'B' })
      ),
      textReply('Both done.')
    ])
    const { sessionId, assistantMessageId } = await h.send('two writes')
    await h.idle(sessionId)
    const [first, second] = h.presenters.sessions.interactions.list({ sessionId, status: 'pending' })
    expect([first.toolCallId, second.toolCallId]).toEqual(['a', 'b'])
    const reply1 = await call(h, chatRespondToolInteraction, {
      sessionId,
      messageId: assistantMessageId,
      interactionId: second.id,
      response: { kind: 'permission', decision: 'allow_once' }
    })
    expect(reply1).toEqual({ accepted: true, remaining: 1, resumed: false })
    expect(h.presenters.agentRuntime.isRunning(sessionId)).toBe(false)
    expect(existsSync(join(dir, 'b.txt'))).toBe(false)
    const reply2 = await call(h, chatRespondToolInteraction, {
      sessionId,
      messageId: assistantMessageId,
      interactionId: first.id,
      response: { kind: 'permission', decision: 'allow_session' }
    })
    expect(reply2).toEqual({ accepted: true, remaining: 0, resumed: true })
    await h.idle(sessionId)
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('A')
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('B')
    expect(toolResults(h.bodies()[1]).map((r) => r.tool_call_id)).toEqual(['a', 'b'])
    expect(h.presenters.sessions.messages.require(assistantMessageId).status).toBe('sent')
  })

  it('answers a multi-select question with two options and free text', async () => {
    const h = await harness([
      callsReply(
        toolCall('q1', 'deepchat_question', {
          question: 'Which colours?',
          options: [{ label: 'Red' }, { label: 'Green' }, { label: 'Blue' }],
          multiple: true,
          custom: true
        })
      ),
      textReply('Great choice.')
    ])
    const { sessionId, assistantMessageId } = await h.send('ask me')
    await h.idle(sessionId)
    const [pending] = h.presenters.sessions.interactions.list({ sessionId, status: 'pending' })
    expect(pending.kind).toBe('question')
    const bad = await h.router.invoke(
      'chat.respondToolInteraction',
      {
        sessionId,
        messageId: assistantMessageId,
        interactionId: pending.id,
        response: { kind: 'question', selected: ['Purple'] }
      },
      { transport: 'test', clientId: 't' }
    )
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(h.presenters.sessions.interactions.require(pending.id).status).toBe('pending') // nothing lost
    await call(h, chatRespondToolInteraction, {
      sessionId,
      messageId: assistantMessageId,
      interactionId: pending.id,
      response: { kind: 'question', selected: ['Red', 'Blue'], text: 'and a bit of gold' }
    })
    await h.idle(sessionId)
    const [result] = toolResults(h.bodies()[1])
    expect(result.tool_call_id).toBe('q1')
    expect(result.content).toContain('Red, Blue')
    expect(result.content).toContain('and a bit of gold')
    const message = h.presenters.sessions.messages.require(assistantMessageId)
    expect(message.blocks.find((b) => b.kind === 'action')).toMatchObject({
      status: 'success',
      data: { answer: { selected: ['Red', 'Blue'], text: 'and a bit of gold' } }
    })
    expect(h.presenters.sessions.interactions.require(pending.id).status).toBe('answered')
  })

  it('keeps a paused message answerable across a restart', async () => {
    const target = join(tempDir(), 'later.txt')
    const h = await harness([
      callsReply(toolCall('w1', 'write', { path: target, content: 'after restart' })),
      textReply('Finished after the restart.')
    ])
    const { sessionId, assistantMessageId } = await h.send('write later')
    await h.idle(sessionId)
    await h.restart()
    expect(h.presenters.sessions.messages.require(assistantMessageId).status).toBe('awaiting_interaction')
    const [pending] = h.presenters.sessions.interactions.list({ sessionId, status: 'pending' })
    await call(h, chatRespondToolInteraction, {
      sessionId,
      messageId: assistantMessageId,
      interactionId: pending.id,
      response: { kind: 'permission', decision: 'allow_once' }
    })
    await h.idle(sessionId)
    expect(readFileSync(target, 'utf8')).toBe('after restart')
    const message = h.presenters.sessions.messages.require(assistantMessageId)
    expect(message.status).toBe('sent')
    expect(message.blocks.at(-1)).toMatchObject({ kind: 'content', text: 'Finished after the restart.' })
  })

  it('refuses new messages while a message waits for an answer', async () => {
    const h = await harness([
      callsReply(toolCall('w1', 'write', { path: join(tempDir(), 'x'), content: 'x' }))
    ])
    const { sessionId } = await h.send('write')
    await h.idle(sessionId)
    await expect(call(h, chatSendMessage, { sessionId, text: 'another' })).rejects.toMatchObject({
      code: 'session_busy'
    })
  })

  it('allow always stores a rule, so the same request later runs without asking', async () => {
    const target = join(tempDir(), 'always.txt')
    const h = await harness([
      callsReply(toolCall('w1', 'write', { path: target, content: 'one' })),
      textReply('First write done.'),
      callsReply(toolCall('w2', 'write', { path: target, content: 'two' })),
      textReply('Second write done.')
    ])
    const first = await h.send('write once')
    await h.idle(first.sessionId)
    const [pending] = h.presenters.sessions.interactions.list({
      sessionId: first.sessionId,
      status: 'pending'
    })
    await call(h, chatRespondToolInteraction, {
      sessionId: first.sessionId,
      messageId: first.assistantMessageId,
      interactionId: pending.id,
      response: { kind: 'permission', decision: 'allow_always' }
    })
    await h.idle(first.sessionId)
    expect(h.presenters.permissions.listRules()).toHaveLength(1)
    const second = await h.send('write again')
    await h.idle(second.sessionId)
    expect(h.presenters.sessions.messages.require(second.assistantMessageId).status).toBe('sent')
    expect(readFileSync(target, 'utf8')).toBe('two')
  })
})
