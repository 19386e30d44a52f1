import { describe, expect, it } from 'vitest'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { callsReply, eventsOf, textReply, toolCall, useLoopHarness } from './helpers'
import { chatStreamDelta } from '@shared/contracts/events/chat.events'

const harness = useLoopHarness()
const TEST_SERVER = join(import.meta.dirname, '../../fixtures/mcp/testServer.mjs')

describe('tool call blocks name their server', () => {
  it("stores the MCP server's display name and the agent tool server on each call block, from the first delta on", async () => {
    const h = await harness([
      callsReply(
        toolCall('m1', 'echo-srv__echo', { message: 'hi' }),
        toolCall('r1', 'read', { path: 'a.txt' })
      ),
      textReply('Both done.')
    ])
    await h.presenters.mcp.addServer({
      id: 'echo-srv',
      name: 'Echo Tools',
      type: 'stdio',
      command: process.execPath,
      args: [TEST_SERVER],
      enabled: false
    })
    await h.presenters.mcp.startServer('echo-srv')
    writeFileSync(join(h.workspace, 'a.txt'), 'alpha')
    const { sessionId, assistantMessageId } = await h.send('echo and read', { permissionMode: 'full_access' })
    await h.idle(sessionId)

    const calls = h.presenters.sessions.messages
      .require(assistantMessageId)
      .blocks.filter((b) => b.kind === 'tool_call')
    expect(calls.map((b) => [b.toolCall?.name, b.toolCall?.serverName, b.status])).toEqual([
      ['echo-srv__echo', 'Echo Tools', 'success'],
      ['read', 'agent-filesystem', 'success']
    ])
    // The renderer learns it with the block itself, not only after a reload.
    const firstUpserts = eventsOf(h, chatStreamDelta)
      .flatMap((d) => d.ops)
      .flatMap((op) => (op.op === 'upsert' && op.block.kind === 'tool_call' ? [op.block] : []))
    expect(firstUpserts.find((block) => block.toolCall.id === 'm1')?.toolCall.serverName).toBe('Echo Tools')
  }, 30_000)

  it('leaves serverName unset for a name no tool has (the model made it up)', async () => {
    const h = await harness([callsReply(toolCall('x1', 'no_such_tool', {})), textReply('Sorry.')])
    const { sessionId, assistantMessageId } = await h.send('call a ghost', { permissionMode: 'full_access' })
    await h.idle(sessionId)
    const block = h.presenters.sessions.messages
      .require(assistantMessageId)
      .blocks.find((b) => b.kind === 'tool_call')!
    expect(block.toolCall?.name).toBe('no_such_tool')
    expect(block.toolCall?.serverName).toBeUndefined()
    expect(block.status).toBe('error')
  }, 30_000)
})
