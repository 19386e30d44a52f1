import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import type { FakeResponse, RecordedRequest } from '../../fixtures/llm/fakeLlm'
import { callsReply, eventsOf, textReply, toolCall, toolResults, useLoopHarness } from '../loop/helpers'
import { mcpToolsDeferred } from '@shared/contracts/events/mcp.events'
import { openAiBody } from '../../fixtures/llm/openAiRequest'

const harness = useLoopHarness()
const BIG_SERVER = join(import.meta.dirname, '../../fixtures/mcp/bigServer.mjs')
const MAX_TOOLS = 128

/** A provider that refuses requests with more than 128 tools, as some real ones do. */
function strictProvider(replies: FakeResponse[]) {
  let next = 0
  return (request: RecordedRequest): FakeResponse => {
    const tools = (openAiBody(request.body).tools ?? []) as unknown[]
    if (tools.length > MAX_TOOLS) return { status: 400, message: `too many tools: ${tools.length}` }
    return replies[next++] ?? textReply('Out of script.')
  }
}

describe('tool search for big MCP catalogs', () => {
  it('calls the 777th of 1,000 tools through tool_search, each request under the tool limit', async () => {
    const h = await harness(
      strictProvider([
        callsReply(toolCall('s1', 'tool_search', { query: 'tool_777' })),
        callsReply(toolCall('c1', 'big__tool_777', { value: 'ticket-42' })),
        textReply('Done.')
      ])
    )
    await h.presenters.mcp.addServer({
      id: 'big',
      name: 'Big',
      type: 'stdio',
      command: process.execPath,
      args: [BIG_SERVER],
      enabled: false
    })
    await h.presenters.mcp.startServer('big')
    expect(h.presenters.mcp.listToolViews('big')).toHaveLength(1000)

    const { sessionId } = await h.send('run tool 777', { permissionMode: 'full_access' })
    await h.idle(sessionId)
    const bodies = h.bodies()
    expect(bodies).toHaveLength(3)
    for (const body of bodies) expect(body.tools?.length).toBeLessThanOrEqual(MAX_TOOLS)
    const first = bodies[0]
    expect(JSON.stringify(first).length).toBeLessThan(40_000)
    const firstNames = (first.tools ?? []).map((t) => t.function.name)
    expect(firstNames).toContain('tool_search')
    expect(firstNames).not.toContain('big__tool_777')

    expect(toolResults(bodies[1])[0].content).toContain('big__tool_777')
    expect(bodies[1].tools?.map((t) => t.function.name)).toContain('big__tool_777')
    // The user is told once, when the chat went over the limit (the built-in servers' tools count too).
    expect(eventsOf(h, mcpToolsDeferred)).toEqual([{ sessionId, total: expect.any(Number), limit: 100 }])
    expect(eventsOf(h, mcpToolsDeferred)[0].total).toBeGreaterThanOrEqual(1000)
    expect(toolResults(bodies[2])).toContainEqual({
      tool_call_id: 'c1',
      content: 'tool_777 ran with ticket-42'
    })
  }, 60_000)

  it('offers every tool and no tool_search while the catalog is small', async () => {
    const h = await harness([textReply('Hi.')])
    await h.presenters.mcp.addServer({
      id: 'small',
      name: 'Small',
      type: 'stdio',
      command: process.execPath,
      args: [BIG_SERVER],
      env: { TOOL_COUNT: '5' },
      enabled: false
    })
    await h.presenters.mcp.startServer('small')
    const { sessionId } = await h.send('hi', { permissionMode: 'full_access' })
    await h.idle(sessionId)
    const names = (h.bodies()[0].tools ?? []).map((t) => t.function.name)
    expect(names.filter((n: string) => n.startsWith('small__'))).toHaveLength(5)
    expect(names).not.toContain('tool_search')
  }, 30_000)

  it('defers a smaller catalog once the user lowers the threshold in Settings', async () => {
    const h = await harness([textReply('Hi.'), textReply('Again.')])
    await h.presenters.mcp.addServer({
      id: 'mid',
      name: 'Mid',
      type: 'stdio',
      command: process.execPath,
      args: [BIG_SERVER],
      env: { TOOL_COUNT: '40' },
      enabled: false
    })
    await h.presenters.mcp.startServer('mid')
    const names = (i: number) => (h.bodies()[i].tools ?? []).map((t) => t.function.name)
    const { sessionId } = await h.send('hi', { permissionMode: 'full_access' })
    await h.idle(sessionId)
    expect(names(0)).toContain('mid__tool_1')
    expect(names(0)).not.toContain('tool_search')

    h.presenters.config.updateSettings({ mcpToolSearchThreshold: 10 })
    await h.send('again', { sessionId, permissionMode: 'full_access' })
    await h.idle(sessionId)
    expect(names(1)).toContain('tool_search')
    expect(names(1)).not.toContain('mid__tool_1')
    expect(eventsOf(h, mcpToolsDeferred)).toEqual([{ sessionId, total: expect.any(Number), limit: 10 }])
  }, 30_000)
})
