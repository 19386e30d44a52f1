import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

/**
 * A server that declares output schemas and answers with whatever structured content the
 * test asks for (the low-level handlers, because McpServer checks its own output).
 */
function schemaServer(): McpServer {
  const server = new McpServer({ name: 'schemas', version: '1.0.0' }, { capabilities: { tools: {} } })
  server.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: 'count',
        inputSchema: { type: 'object', properties: { total: {} } },
        outputSchema: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] }
      },
      {
        name: 'broken',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { x: { type: 'no-such-type' } } }
      },
      { name: 'plain', inputSchema: { type: 'object' } }
    ]
  }))
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: 'done' }],
    structuredContent: { total: request.params.arguments?.total }
  }))
  return server
}

async function started(): Promise<Harness> {
  const harness = createHarness({ builtins: (name) => (name === 'schemas' ? schemaServer() : undefined) })
  await harness.mcp.addServer({
    id: 'schemas',
    name: 'schemas',
    type: 'inmemory',
    command: 'schemas',
    enabled: false
  })
  await harness.mcp.startServer('schemas')
  return harness
}

describe('tool output schemas', () => {
  it('checks structured content against the tool output schema when the tool is called', async () => {
    h = await started()
    expect((await h.mcp.callTool('schemas', 'count', { total: 3 })).structuredContent).toEqual({ total: 3 })
    await expect(h.mcp.callTool('schemas', 'count', { total: 'many' })).rejects.toMatchObject({
      code: 'mcp_call_failed',
      message: expect.stringMatching(/does not match the tool's output schema/)
    })
  })

  it('lists every tool when one has a broken output schema, and only that tool fails, clearly', async () => {
    h = await started()
    const names = (await h.mcp.listTools()).filter((t) => t.serverId === 'schemas').map((t) => t.name)
    expect(names).toEqual(['count', 'broken', 'plain'])
    await expect(h.mcp.callTool('schemas', 'broken', { total: 1 })).rejects.toMatchObject({
      code: 'mcp_call_failed',
      message: expect.stringMatching(/outputSchema is not valid JSON Schema/)
    })
    expect((await h.mcp.callTool('schemas', 'plain', { total: 1 })).structuredContent).toEqual({ total: 1 })
  })
})
