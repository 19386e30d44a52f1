import { afterEach, describe, expect, it } from 'vitest'
import { mcpCatalogChanged } from '@shared/contracts/events/mcp.events'
import { createHarness, type Harness } from './harness'
import { hostileServerInput } from './hostileServer'
import { until } from '../../helpers/until'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

// `flood {count}` sends `count` tools/list_changed notifications as fast as it can, then adds a
// tool `last` and sends one more; `lists` says how many times the client asked for tools/list.
const LIST_SERVER = {
  capabilities: { tools: { listChanged: true } },
  body: `
state.lists = 0
state.tools = [
  { name: 'flood', inputSchema: { type: 'object', properties: { count: { type: 'number' } } } },
  { name: 'lists', inputSchema: { type: 'object' } }
]
server.setRequestHandler(types.ListToolsRequestSchema, async () => {
  state.lists++
  return { tools: state.tools }
})
server.setRequestHandler(types.CallToolRequestSchema, async (request) => {
  if (request.params.name === 'lists') return { content: [{ type: 'text', text: String(state.lists) }] }
  for (let i = 0; i < request.params.arguments.count; i++) await server.sendToolListChanged()
  state.tools = [...state.tools, { name: 'last', inputSchema: { type: 'object' } }]
  await server.sendToolListChanged()
  return { content: [{ type: 'text', text: 'sent' }] }
})
`
}

async function listsSoFar(harness: Harness): Promise<number> {
  const result = await harness.mcp.callTool('lc', 'lists', {})
  return Number(result.content.map((c) => (c.type === 'text' ? c.text : '')).join(''))
}

describe('a server flooding list_changed', () => {
  it('5,000 notifications cause a few re-lists, one catalog event each, and the final list is seen', async () => {
    h = createHarness()
    await h.mcp.addServer(hostileServerInput(h.dir, 'lc', LIST_SERVER))
    await h.mcp.startServer('lc')
    const listsBefore = await listsSoFar(h)
    const toolEvents = () =>
      h!.eventsNamed(mcpCatalogChanged).filter((e) => {
        const { serverId, kinds } = e as { serverId: string; kinds: string[] }
        return serverId === 'lc' && kinds.includes('tools')
      }).length
    const eventsBefore = toolEvents()

    const began = Date.now()
    await h.mcp.callTool('lc', 'flood', { count: 5000 })
    await until(() => h!.mcp.listToolViews('lc').some((t) => t.name === 'last'), { timeoutMs: 15_000 })
    // Let a re-list that may still be pending settle, then count.
    await until(async () => (await listsSoFar(h!)) - listsBefore === toolEvents() - eventsBefore, {
      timeoutMs: 5_000
    })
    const seconds = (Date.now() - began) / 1000
    const relists = (await listsSoFar(h)) - listsBefore

    expect(relists).toBeGreaterThanOrEqual(1)
    // At most one re-list per 250 ms of flood (plus the one after it), never one per notification.
    expect(relists).toBeLessThanOrEqual(Math.ceil(seconds * 4) + 1)
    expect(relists).toBeLessThan(50)
    expect(toolEvents() - eventsBefore).toBe(relists)
  })
})
