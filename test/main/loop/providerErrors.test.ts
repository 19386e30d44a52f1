import { describe, expect, it } from 'vitest'
import { eventsOf, call, useLoopHarness } from './helpers'
import { chatStreamFailed, chatStreamRetrying } from '@shared/contracts/events/chat.events'
import { chatGetMessage } from '@shared/contracts/routes/chat.routes'

const harness = useLoopHarness()

describe('provider errors in the chat loop', () => {
  it('announces a retry with its countdown, then answers', async () => {
    const h = await harness([
      { status: 503, message: 'Busy', headers: { 'retry-after': '1' } },
      { steps: [{ type: 'text', text: 'Back again.' }] }
    ])
    await h.presenters.llmProviders.updateProvider('fake-openai', { maxRetries: 2 })
    const before = Date.now()
    const { sessionId, assistantMessageId } = await h.send('hello')
    await h.idle(sessionId)
    const [retrying] = eventsOf(h, chatStreamRetrying)
    expect(retrying).toMatchObject({
      sessionId,
      messageId: assistantMessageId,
      attempt: 1,
      maxRetries: 2,
      delayMs: 1000,
      category: 'overloaded',
      message: 'Busy'
    })
    expect(retrying.retryAt).toBeGreaterThanOrEqual(before + 1000)
    const { message } = await call(h, chatGetMessage, { messageId: assistantMessageId })
    expect(message.status).toBe('sent')
    expect(message.blocks.map((b: { kind: string }) => b.kind)).toEqual(['content'])
  })

  it('carries the category and status on the error block and on chat.stream.failed', async () => {
    const h = await harness([{ status: 401, message: 'Incorrect API key provided' }])
    const { sessionId, assistantMessageId } = await h.send('hello')
    await h.idle(sessionId)
    expect(eventsOf(h, chatStreamFailed)[0]).toMatchObject({
      status: 'error',
      error: { code: 'provider_error', category: 'auth', status: 401, message: 'Incorrect API key provided' }
    })
    const { message } = await call(h, chatGetMessage, { messageId: assistantMessageId })
    expect(message.blocks.at(-1)).toMatchObject({
      kind: 'error',
      text: 'Incorrect API key provided',
      data: { code: 'provider_error', category: 'auth', status: 401 }
    })
    expect(eventsOf(h, chatStreamRetrying)).toEqual([])
  })

  it('keeps the text that arrived before a dropped connection and says it was the network', async () => {
    const h = await harness([{ steps: [{ type: 'text', text: 'Sure, ' }, { type: 'drop' }] }])
    const { sessionId, assistantMessageId } = await h.send('hello')
    await h.idle(sessionId)
    expect(eventsOf(h, chatStreamFailed)[0].error).toMatchObject({
      code: 'provider_error',
      category: 'network'
    })
    const { message } = await call(h, chatGetMessage, { messageId: assistantMessageId })
    expect(message.blocks[0]).toMatchObject({ kind: 'content', text: 'Sure, ' })
    expect(message.blocks.at(-1)).toMatchObject({ kind: 'error', data: { category: 'network' } })
  })
})
