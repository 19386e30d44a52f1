import { describe, expect, it } from 'vitest'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters } from '../../../src/main/presenter'
import { callsReply, eventsOf, call, tempDir, textReply, toolCall, useLoopHarness } from './helpers'
import { until } from '../../helpers/until'
import { chatQueueChanged, chatStreamDelta, chatStreamFailed } from '@shared/contracts/events/chat.events'
import {
  chatCancelQueued,
  chatGetMessages,
  chatListQueue,
  chatSendMessage,
  chatStop
} from '@shared/contracts/routes/chat.routes'
import { sessionsPurge } from '@shared/contracts/routes/sessions.routes'

const harness = useLoopHarness()

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('stop', () => {
  it('stops mid-stream: the provider request is closed and the partial text kept', async () => {
    const h = await harness([{ steps: [{ type: 'text', text: ['Partial ', 'words '] }, { type: 'stall' }] }])
    const { sessionId, assistantMessageId } = await h.send('talk')
    await until(() =>
      eventsOf(h, chatStreamDelta).some((d) => d.ops.some((op) => op.op === 'append' || op.block?.text))
    )
    const started = Date.now()
    const result = await call(h, chatStop, { sessionId })
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(result).toEqual({ stopped: true, messageId: assistantMessageId })
    const message = h.presenters.sessions.messages.require(assistantMessageId)
    expect(message.status).toBe('cancelled')
    expect(message.blocks[0]).toMatchObject({ kind: 'content', text: 'Partial words ' })
    expect(message.blocks.at(-1)).toMatchObject({ kind: 'error', data: { code: 'user_cancelled' } })
    expect(eventsOf(h, chatStreamFailed)[0]).toMatchObject({
      status: 'cancelled',
      error: { code: 'user_cancelled' }
    })
    await until(() => h.llm.generationRequests()[0].clientClosedAt !== undefined)
    expect(h.presenters.sessions.require(sessionId).status).toBe('idle')
  })

  it('stops mid-tool: the running command is killed and the call marked cancelled', async () => {
    const h = await harness([
      callsReply(toolCall('e1', 'exec', { command: 'sleep 5 && echo late > marker.txt', yield_ms: 20_000 }))
    ])
    const { sessionId, assistantMessageId } = await h.send('run it', { permissionMode: 'full_access' })
    const running = () => h.presenters.tools.processes.list(sessionId).find((p) => p.status === 'running')
    // The first command waits for the login shell's PATH (read once, up to 5 s on a slow profile).
    await until(() => typeof running()?.pid === 'number', { timeoutMs: 15_000 }) // the shell is up
    const shell = running()!.pid!
    const started = Date.now()
    await call(h, chatStop, { sessionId })
    expect(Date.now() - started).toBeLessThan(3_000)
    const message = h.presenters.sessions.messages.require(assistantMessageId)
    expect(message.status).toBe('cancelled')
    expect(message.blocks.find((b) => b.kind === 'tool_call')!.status).toBe('cancelled')
    expect(h.llm.generationRequests()).toHaveLength(1) // nothing went back to the model
    // The shell that would write the marker after its sleep is gone, so the marker never comes.
    // A loaded machine may reap the killed shell late; a surviving shell would write the marker.
    await until(() => !isAlive(shell), { timeoutMs: 15_000 })
    expect(existsSync(join(h.workspace, 'marker.txt'))).toBe(false)
  })

  it('stops a paused message by denying all its pending interactions', async () => {
    const dir = tempDir()
    const h = await harness([
      callsReply(
        toolCall('a', 'write', { path: join(dir, 'a.txt'), content: 'A' }),
        toolCall('b', 'write', { path: join(dir, 'b.txt'), content: 'B' })
      )
    ])
    const { sessionId, assistantMessageId } = await h.send('two writes')
    await h.idle(sessionId)
    expect(h.presenters.sessions.interactions.list({ sessionId, status: 'pending' })).toHaveLength(2)
    expect(await call(h, chatStop, { sessionId })).toEqual({
      stopped: true,
      messageId: assistantMessageId
    })
    expect(h.presenters.sessions.interactions.list({ sessionId, status: 'pending' })).toHaveLength(0)
    expect(
      h.presenters.sessions.interactions.list({ messageId: assistantMessageId }).map((i) => i.status)
    ).toEqual(['denied', 'denied'])
    const message = h.presenters.sessions.messages.require(assistantMessageId)
    expect(message.status).toBe('cancelled')
    expect(message.blocks.filter((b) => b.kind === 'action').map((b) => b.status)).toEqual([
      'denied',
      'denied'
    ])
    expect(message.blocks.filter((b) => b.kind === 'tool_call').map((b) => b.toolCall?.response)).toEqual([
      'User denied the request.',
      'User denied the request.'
    ])
    expect(h.llm.generationRequests()).toHaveLength(1)
    expect(h.presenters.sessions.require(sessionId).status).toBe('idle')
    // The session takes new messages again.
    expect(existsSync(join(dir, 'a.txt'))).toBe(false)
  })
})

describe('crash recovery', () => {
  it('flushes streaming text to SQLite while streaming; after a crash the message is an error with that text', async () => {
    const h = await harness([
      { steps: [{ type: 'text', text: ['Streaming ', 'so ', 'far'] }, { type: 'stall' }] }
    ])
    const { sessionId, assistantMessageId } = await h.send('long answer')
    await until(() => eventsOf(h, chatStreamDelta).length > 0)
    const firstDeltaAt = Date.now()
    await until(
      () => h.presenters.sessions.messages.require(assistantMessageId).blocks[0]?.text === 'Streaming so far',
      { timeoutMs: 2_000 }
    )
    expect(Date.now() - firstDeltaAt).toBeLessThan(800) // flushed within ~500 ms, not only at the end
    expect(h.presenters.sessions.messages.require(assistantMessageId).status).toBe('streaming')
    // A second app on the same data folder sees what a restart after a crash would see.
    const after = createPresenters(createNodePlatform({ dataDir: h.dataDir, log: () => {} }), {
      log: () => {}
    })
    try {
      const message = after.sessions.messages.require(assistantMessageId)
      expect(message.status).toBe('error')
      expect(message.blocks[0]).toMatchObject({ kind: 'content', text: 'Streaming so far' })
      expect(message.blocks.at(-1)).toMatchObject({ kind: 'error', data: { code: 'interrupted' } })
      expect(after.sessions.require(sessionId).status).toBe('idle')
    } finally {
      await after.dispose()
    }
  })
})

describe('steering', () => {
  it('queues a message sent during a run and starts it at the next tool boundary', async () => {
    const h = await harness([
      callsReply(toolCall('e1', 'exec', { command: 'sleep 1; echo slept' })),
      textReply('Answer to the steer.')
    ])
    const first = await h.send('start working', { permissionMode: 'full_access' })
    await until(() =>
      h.presenters.agentRuntime
        .getMessage(first.assistantMessageId)
        .blocks.some((b) => b.kind === 'tool_call' && b.status === 'loading')
    )
    const queued = await call(h, chatSendMessage, {
      sessionId: first.sessionId,
      text: 'actually, do this instead'
    })
    expect(queued).toMatchObject({
      started: false,
      userMessageId: null,
      queued: { text: 'actually, do this instead' }
    })
    expect(eventsOf(h, chatQueueChanged).at(-1)!.items).toHaveLength(1)
    await until(
      () => h.llm.generationRequests().length === 2 && !h.presenters.agentRuntime.isRunning(first.sessionId),
      { timeoutMs: 10_000 }
    )
    const firstMessage = h.presenters.sessions.messages.require(first.assistantMessageId)
    expect(firstMessage.status).toBe('sent')
    expect(firstMessage.blocks.find((b) => b.kind === 'tool_call')).toMatchObject({ status: 'success' })
    const body = h.bodies()[1]
    const last = body.messages.at(-1)
    expect(last).toMatchObject({ role: 'user', content: 'actually, do this instead' })
    expect(body.messages.some((m) => m.role === 'tool' && m.tool_call_id === 'e1')).toBe(true)
    const { messages } = await call(h, chatGetMessages, { sessionId: first.sessionId })
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(messages[3].blocks[0].text).toBe('Answer to the steer.')
  }, 15_000)

  it('keeps queued input across a restart; the next message carries it first, and a cancelled item stays out', async () => {
    const h = await harness([
      { steps: [{ type: 'text', text: 'Working on it' }, { type: 'stall' }] },
      textReply('Got both.')
    ])
    const first = await h.send('start a long job')
    await until(
      () => h.presenters.agentRuntime.isRunning(first.sessionId) && h.llm.generationRequests().length === 1
    )
    const kept = await call(h, chatSendMessage, {
      sessionId: first.sessionId,
      text: 'also check the tests'
    })
    const dropped = await call(h, chatSendMessage, {
      sessionId: first.sessionId,
      text: 'never mind this one'
    })
    expect(
      await call(h, chatCancelQueued, { sessionId: first.sessionId, inputId: dropped.queued!.id })
    ).toEqual({ removed: true })

    await h.restart()
    const { items } = await call(h, chatListQueue, { sessionId: first.sessionId })
    expect(items).toEqual([
      { id: kept.queued!.id, text: 'also check the tests', createdAt: kept.queued!.createdAt }
    ])

    const next = await h.send('and then summarise', { sessionId: first.sessionId })
    await h.idle(next.sessionId)
    expect(h.bodies()[1].messages.at(-1)).toMatchObject({
      role: 'user',
      content: 'also check the tests\n\nand then summarise'
    })
    expect((await call(h, chatListQueue, { sessionId: first.sessionId })).items).toEqual([])
    expect(eventsOf(h, chatQueueChanged).at(-1)).toEqual({ sessionId: first.sessionId, items: [] })
  }, 15_000)

  it('stop drops the queue, and purging a session removes its queued input', async () => {
    const h = await harness([
      { steps: [{ type: 'text', text: 'Working' }, { type: 'stall' }] },
      { steps: [{ type: 'text', text: 'Again' }, { type: 'stall' }] }
    ])
    const first = await h.send('job one')
    await until(
      () => h.presenters.agentRuntime.isRunning(first.sessionId) && h.llm.generationRequests().length === 1
    )
    await call(h, chatSendMessage, { sessionId: first.sessionId, text: 'queued then stopped' })
    await call(h, chatStop, { sessionId: first.sessionId })
    expect((await call(h, chatListQueue, { sessionId: first.sessionId })).items).toEqual([])

    await h.send('job two', { sessionId: first.sessionId })
    await until(
      () => h.presenters.agentRuntime.isRunning(first.sessionId) && h.llm.generationRequests().length === 2
    )
    await call(h, chatSendMessage, { sessionId: first.sessionId, text: 'queued then purged' })
    await call(h, sessionsPurge, { sessionId: first.sessionId })
    const left = h.presenters.sqlite.db.prepare('SELECT COUNT(*) AS n FROM queued_inputs').get() as {
      n: number
    }
    expect(left.n).toBe(0)
  }, 15_000)
})
