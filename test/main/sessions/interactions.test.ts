import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSessionFixture, type SessionFixture } from './helpers'

describe('pending interactions', () => {
  let fx: SessionFixture
  let sessionId: string
  let tapeId: string
  let messageId: string
  beforeEach(() => {
    fx = openSessionFixture()
    const session = fx.sessions.create()
    sessionId = session.id
    tapeId = session.tapeId
    fx.sessions.messages.appendUserMessage(sessionId, { text: 'edit two files' })
    messageId = fx.sessions.messages.createAssistantMessage(sessionId).id
  })
  afterEach(() => fx.close())

  const pauseWithTwo = () =>
    fx.sessions.interactions.pause(messageId, {
      blocks: [
        { id: 'c1', kind: 'content', status: 'success', text: 'Reading first.' },
        {
          id: 'b-t0',
          kind: 'tool_call',
          status: 'success',
          toolCall: { id: 't0', name: 'read', params: '{}', response: 'ok' }
        },
        {
          id: 'b-t1',
          kind: 'tool_call',
          status: 'pending',
          toolCall: { id: 't1', name: 'write', params: '{"path":"/etc/a"}' }
        },
        {
          id: 'a-t1',
          kind: 'action',
          status: 'pending',
          data: {
            actionType: 'permission',
            interactionId: 'p1',
            toolCallId: 't1',
            toolName: 'write',
            request: {
              type: 'write',
              tool: 'write',
              server: 'agent-filesystem',
              sessionId: 's',
              risk: 'medium',
              reason: 'writes outside the workspace'
            }
          }
        },
        {
          id: 'a-q',
          kind: 'action',
          status: 'pending',
          data: {
            actionType: 'question',
            interactionId: 'q1',
            toolCallId: 'tq',
            question: {
              question: 'Which branch?',
              options: [{ label: 'main' }, { label: 'dev' }],
              multiple: false,
              custom: true
            }
          }
        }
      ],
      interactions: [
        {
          id: 'p1',
          kind: 'permission',
          blockId: 'a-t1',
          toolCallId: 't1',
          request: { tool: 'write', path: '/etc/a' }
        },
        {
          id: 'q1',
          kind: 'question',
          blockId: 'a-q',
          request: { question: 'Which branch?', options: ['main', 'dev'] }
        }
      ]
    })

  it('pauses a message with explicit state, rows and facts', () => {
    const { message, interactions } = pauseWithTwo()
    expect(message.status).toBe('awaiting_interaction')
    expect(interactions.map((i) => [i.id, i.kind, i.status])).toEqual([
      ['p1', 'permission', 'pending'],
      ['q1', 'question', 'pending']
    ])
    expect(fx.sessions.interactions.list({ sessionId, status: 'pending' })).toHaveLength(2)
    const names = fx.tape.entries(tapeId).map((e) => e.name)
    // The finished read is a fact already; the write waiting for permission is not.
    expect(names.slice(-5)).toEqual([
      'read',
      'read',
      'message/assistant',
      'interaction/requested',
      'interaction/requested'
    ])
    expect(() => fx.sessions.interactions.pause(messageId, { interactions: [] })).toThrow(/at least one/)
  })

  it('accepts answers in any order and says when the last one is in', () => {
    pauseWithTwo()
    const answer = fx.sessions.interactions.resolve('q1', 'answered', {
      selected: ['dev'],
      text: 'and rebase'
    })
    expect(answer.remaining).toBe(1)
    expect(answer.interaction).toMatchObject({
      status: 'answered',
      response: { selected: ['dev'], text: 'and rebase' }
    })
    const grant = fx.sessions.interactions.resolve('p1', 'granted', { scope: 'allow_once' })
    expect(grant.remaining).toBe(0)
    const resolved = fx.tape.entries(tapeId).filter((e) => e.name === 'interaction/resolved')
    expect(resolved.map((e) => (e.payload.data as { interactionId: string }).interactionId)).toEqual([
      'q1',
      'p1'
    ])
    expect(() => fx.sessions.interactions.resolve('p1', 'denied')).toThrow(
      expect.objectContaining({ code: 'interaction_not_pending' })
    )
    expect(() => fx.sessions.interactions.resolve('zz', 'denied')).toThrow(
      expect.objectContaining({ code: 'interaction_not_found' })
    )
  })

  it('rejects an answer that does not fit the interaction kind', () => {
    pauseWithTwo()
    expect(() => fx.sessions.interactions.resolve('q1', 'granted')).toThrow(
      expect.objectContaining({ code: 'invalid_input' })
    )
    expect(() => fx.sessions.interactions.resolve('p1', 'answered')).toThrow(
      expect.objectContaining({ code: 'invalid_input' })
    )
    expect(fx.sessions.interactions.pendingCount(messageId)).toBe(2)
  })

  it('closes every open interaction at once when the user stops a paused message', () => {
    pauseWithTwo()
    const closed = fx.sessions.interactions.resolveAll(messageId, 'denied', { reason: 'stopped' })
    expect(closed.map((i) => [i.id, i.status])).toEqual([
      ['p1', 'denied'],
      ['q1', 'cancelled']
    ])
    expect(fx.sessions.interactions.pendingCount(messageId)).toBe(0)
  })

  it('refuses to pause a message that already finished', () => {
    fx.sessions.messages.finalizeAssistantMessage(messageId, { status: 'sent', blocks: [] })
    expect(() => pauseWithTwo()).toThrow(expect.objectContaining({ code: 'message_not_pausable' }))
    expect(fx.sessions.interactions.list({ messageId })).toEqual([])
  })
})
