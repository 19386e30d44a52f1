import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './harness'
import { hostileServerInput } from './hostileServer'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

// Two good tools among broken ones: a string schema, an unknown JSON type, no schema, a
// property list that is not an object, a name taken twice, and no name at all.
const SCHEMA_SERVER = {
  capabilities: { tools: {} },
  body: `
server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: [
  { name: 'good_one', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
  { name: 'string_schema', inputSchema: { type: 'string' } },
  { name: 'unknown_type', inputSchema: { type: 'object', properties: { x: { type: 'no-such-type' } } } },
  { name: 'no_schema' },
  { name: 'bad_properties', inputSchema: { type: 'object', properties: 5 } },
  { name: 'good_one', description: 'a second tool with the same name', inputSchema: { type: 'object' } },
  { inputSchema: { type: 'object' } },
  { name: 'good_two', inputSchema: { type: 'object', $schema: 'https://json-schema.org/draft/2020-12/schema', $defs: {} } }
] }))
server.setRequestHandler(types.CallToolRequestSchema, async (request) => ({
  content: [{ type: 'text', text: 'ran ' + request.params.name }]
}))
`
}

describe('a server listing tools with broken definitions', () => {
  it('skips each broken tool by itself, lists the others and shows why on the server', async () => {
    h = createHarness()
    await h.mcp.addServer(hostileServerInput(h.dir, 'sch', SCHEMA_SERVER))
    const view = await h.mcp.startServer('sch')
    expect(view.status.state).toBe('running')

    expect(h.mcp.listToolViews('sch').map((t) => t.name)).toEqual(['good_one', 'good_two'])
    expect((await h.mcp.listTools()).filter((t) => t.serverId === 'sch').map((t) => t.name)).toEqual([
      'good_one',
      'good_two'
    ])
    expect((await h.mcp.callTool('sch', 'good_two', {})).content).toEqual([
      { type: 'text', text: 'ran good_two' }
    ])

    const skipped = h.mcp.getServer('sch').skippedTools ?? []
    expect(skipped.map((s) => s.name)).toEqual([
      'string_schema',
      'unknown_type',
      'no_schema',
      'bad_properties',
      'good_one',
      '#7'
    ])
    const reason = (name: string) => skipped.find((s) => s.name === name)?.reason
    expect(reason('string_schema')).toMatch(/^inputSchema\.type: /)
    expect(reason('unknown_type')).toMatch(
      /^inputSchema is not valid JSON Schema: inputSchema\/properties\/x\/type/
    )
    expect(reason('no_schema')).toMatch(/^inputSchema: /)
    expect(reason('bad_properties')).toMatch(/^inputSchema\.properties: /)
    expect(reason('good_one')).toBe('another tool of this server has the same name')
    expect(reason('#7')).toMatch(/^name: /)
    // The list the renderer loads carries them too.
    expect(h.mcp.listServers().find((s) => s.id === 'sch')?.skippedTools).toHaveLength(6)
  })
})
