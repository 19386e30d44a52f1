import { describe, expect, it } from 'vitest'
import { picked, call, textReply, useLoopHarness } from './helpers'
import { until } from '../../helpers/until'
import {
  chatGetMessage,
  chatGetMessages,
  chatSendMessage,
  chatStop
} from '@shared/contracts/routes/chat.routes'
import { sessionsPurge } from '@shared/contracts/routes/sessions.routes'

const harness = useLoopHarness()
const CTX = { transport: 'test' as const, clientId: 'test' }

describe('chat routes', () => {
  it('returns from sendMessage as soon as the turn is accepted, while the reply still streams', async () => {
    const h = await harness([{ steps: [{ type: 'text', text: 'slow' }, { type: 'stall' }] }])
    const accepted = await call(h, chatSendMessage, {
      text: 'Hello\nsecond line',
      newSession: {
        providerId: 'fake-openai',
        modelId: 'fake-model',
        workspaceDir: await picked(h, h.workspace)
      }
    })
    expect(accepted).toMatchObject({
      started: true,
      queued: null,
      userMessageId: expect.any(String),
      assistantMessageId: expect.any(String)
    })
    expect(h.presenters.agentRuntime.isRunning(accepted.sessionId)).toBe(true)
    expect(h.presenters.sessions.require(accepted.sessionId)).toMatchObject({
      title: 'Hello',
      status: 'generating',
      providerId: 'fake-openai'
    })
    const view = await call(h, chatGetMessage, { messageId: accepted.assistantMessageId! })
    expect(view.message).toMatchObject({ status: 'streaming', stream: { runId: expect.any(String) } })
    await call(h, chatStop, { sessionId: accepted.sessionId })
  })

  it('rejects bad input with clear codes and loses nothing', async () => {
    const h = await harness([textReply('fine')])
    const bad = async (name: string, input: unknown) =>
      ((await h.router.invoke(name, input, CTX)) as { ok: boolean; error?: { code: string } }).error?.code
    expect(
      await bad('chat.sendMessage', {
        text: '   ',
        newSession: { providerId: 'fake-openai', modelId: 'fake-model' }
      })
    ).toBe('invalid_message')
    expect(await bad('chat.sendMessage', { sessionId: 'nope', text: 'hi' })).toBe('session_not_found')
    expect(
      await bad('chat.sendMessage', { text: 'hi', images: [{ data: 'aGk=', mimeType: 'text/plain' }] })
    ).toBe('invalid_input')
    expect(await bad('chat.sendMessage', { text: 'hi' })).toBe('no_model') // no default model configured
    const { sessionId, assistantMessageId } = await h.send('hello')
    await h.idle(sessionId)
    expect(
      await bad('chat.respondToolInteraction', {
        sessionId,
        messageId: assistantMessageId,
        interactionId: 'missing',
        response: { kind: 'permission', decision: 'deny' }
      })
    ).toBe('interaction_not_found')
    expect(
      await bad('chat.respondToolInteraction', {
        sessionId,
        messageId: assistantMessageId,
        interactionId: 'x',
        response: { kind: 'permission', decision: 'maybe' }
      })
    ).toBe('invalid_input')
    expect(await bad('chat.retry', { sessionId, messageId: 'not-a-message' })).toBe('message_not_found')
    expect(await bad('chat.stop', { sessionId: 'nope' })).toBe('session_not_found')
    const { messages } = await call(h, chatGetMessages, { sessionId })
    expect(messages.map((m: { status: string }) => m.status)).toEqual(['sent', 'sent'])
    expect(h.presenters.sessions.list().sessions).toHaveLength(1) // failed sends created nothing
  })

  it('stores pasted images as attachments and sends them to a vision model as image parts', async () => {
    const h = await harness([textReply('A red pixel.')], { vision: true })
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
    const accepted = await call(h, chatSendMessage, {
      text: 'What is this?',
      images: [{ data: png, mimeType: 'image/png', name: 'pixel.png' }],
      newSession: {
        providerId: 'fake-openai',
        modelId: 'fake-model',
        workspaceDir: await picked(h, h.workspace)
      }
    })
    await h.idle(accepted.sessionId)
    const user = JSON.stringify((h.bodies()[0] as { messages: unknown[] }).messages)
    expect(user).toContain(`data:image/png;base64,${png}`)
    const message = h.presenters.sessions.messages.require(accepted.userMessageId!)
    expect(message.content?.files[0]).toMatchObject({
      name: 'pixel.png',
      mimeType: 'image/png',
      kind: 'image',
      sha256: expect.stringMatching(/^[a-f0-9]{64}$/)
    })
  })
})

describe('deleting a session', () => {
  it('aborts its running reply and closes the provider request', async () => {
    const h = await harness([{ steps: [{ type: 'text', text: 'never ending' }, { type: 'stall' }] }])
    const { sessionId } = await h.send('go')
    await h.llm.waitForRequests(1)
    await call(h, sessionsPurge, { sessionId })
    await h.idle(sessionId)
    expect(h.presenters.agentRuntime.isRunning(sessionId)).toBe(false)
    await until(() => h.llm.generationRequests()[0].clientClosedAt !== undefined, {
      what: 'the provider request is closed',
      timeoutMs: 3_000
    })
    expect(h.llm.generationRequests()[0].clientClosedAt).toBeDefined()
  })
})
