import type { PermissionAnswer } from '@shared/types/blocks'
import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { callsReply, call, tempDir, textReply, toolCall, toolResults, useLoopHarness } from '../loop/helpers'
import { TEST_SERVER } from './harness'
import { chatRespondToolInteraction } from '@shared/contracts/routes/chat.routes'

const harness = useLoopHarness()
type Loop = Awaited<ReturnType<ReturnType<typeof useLoopHarness>>>

async function withTestServer(h: Loop): Promise<void> {
  await h.presenters.mcp.addServer({
    id: 't',
    name: 't',
    type: 'stdio',
    command: process.execPath,
    args: [TEST_SERVER],
    enabled: false
  })
  await h.presenters.mcp.startServer('t')
}

function pendingOf(h: Loop, sessionId: string) {
  return h.presenters.sessions.interactions.list({ sessionId, status: 'pending' })
}

async function answer(h: Loop, sessionId: string, messageId: string, decision: PermissionAnswer) {
  const [pending] = pendingOf(h, sessionId)
  return call(h, chatRespondToolInteraction, {
    sessionId,
    messageId,
    interactionId: pending.id,
    response: { kind: 'permission', decision }
  })
}

describe('"Allow all tools of this server"', () => {
  it('for this chat: the next tool of that server runs unasked here, and still asks in another chat', async () => {
    const h = await harness([
      callsReply(toolCall('m1', 't__echo', { message: 'hi' })),
      callsReply(toolCall('m2', 't__structured', {})),
      textReply('Both ran.'),
      callsReply(toolCall('m3', 't__structured', {})),
      textReply('Asked.')
    ])
    await withTestServer(h)
    const { sessionId, assistantMessageId } = await h.send('echo')
    await h.idle(sessionId)
    const [first] = pendingOf(h, sessionId)
    // A read-only hint lowers the risk shown; it does not skip the question.
    expect(first.request).toMatchObject({ request: { type: 'mcp', server: 't', risk: 'low' } })
    await answer(h, sessionId, assistantMessageId, 'allow_server_session')
    await h.idle(sessionId)
    expect(pendingOf(h, sessionId)).toEqual([])
    expect(toolResults(h.bodies()[2]).map((r) => r.tool_call_id)).toEqual(['m1', 'm2'])
    expect(h.presenters.permissions.listRules()).toEqual([])

    const other = await h.send('again, elsewhere')
    await h.idle(other.sessionId)
    expect(pendingOf(h, other.sessionId)).toHaveLength(1)
  }, 30_000)

  it('always: stores the rule mcp t/*; a non-MCP request cannot take that answer', async () => {
    const h = await harness([
      callsReply(toolCall('m1', 't__echo', { message: 'hi' })),
      textReply('Done.'),
      callsReply(toolCall('w1', 'write', { path: join(tempDir(), 'outside.txt'), content: 'x' }))
    ])
    await withTestServer(h)
    const { sessionId, assistantMessageId } = await h.send('echo')
    await h.idle(sessionId)
    await answer(h, sessionId, assistantMessageId, 'allow_server_always')
    await h.idle(sessionId)
    expect(h.presenters.permissions.listRules()).toMatchObject([
      { kind: 'mcp', pattern: 't/*', effect: 'allow' }
    ])

    const write = await h.send('write')
    await h.idle(write.sessionId)
    expect(pendingOf(h, write.sessionId)).toMatchObject([{ request: { request: { type: 'write' } } }])
    await expect(
      answer(h, write.sessionId, write.assistantMessageId, 'allow_server_session')
    ).rejects.toThrow(/Only an MCP tool call/)
  }, 30_000)
})
