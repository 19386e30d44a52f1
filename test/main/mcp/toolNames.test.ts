import { afterEach, describe, expect, it } from 'vitest'
import { exposeToolNames } from '../../../src/main/presenter/mcpPresenter/toolNames'
import { createHarness as createToolHarness, type Harness as ToolHarness } from '../tools/helpers'
import { createHarness, testServerInput, type Harness } from './harness'

let mcpH: Harness | undefined
let toolH: ToolHarness | undefined

afterEach(async () => {
  await toolH?.close()
  await mcpH?.close()
  toolH = undefined
  mcpH = undefined
})

async function twoServers(): Promise<{ mcp: Harness; tools: ToolHarness }> {
  mcpH = createHarness()
  for (const id of ['nasty', 'other']) {
    await mcpH.mcp.addServer({ ...testServerInput(id), enabled: true })
    await mcpH.waitForStatus(id, (s) => s.state === 'running')
  }
  toolH = createToolHarness({ mcp: mcpH.mcp })
  return { mcp: mcpH, tools: toolH }
}

async function mcpNames(tools: ToolHarness): Promise<string[]> {
  const defs = await tools.tools.getAllToolDefinitions(tools.ctx)
  return defs.filter((d) => d.source === 'mcp').map((d) => d.function.name)
}

const fullAccess = { permissionMode: 'full_access' as const }

describe('the names the model sees for MCP tools', () => {
  it('stay the same in one chat across disabling another server and renaming this one', async () => {
    const { mcp, tools } = await twoServers()
    const first = await mcpNames(tools)
    expect(first).toContain('nasty__echo')
    expect(first).toContain('other__echo')

    await mcp.mcp.setEnabled('other', false)
    const afterDisable = await mcpNames(tools)
    expect(afterDisable).toContain('nasty__echo')
    expect(afterDisable).not.toContain('echo')
    expect(afterDisable.filter((n) => n.startsWith('nasty__'))).toEqual(
      first.filter((n) => n.startsWith('nasty__'))
    )
    expect(tools.text(await tools.call('nasty__echo', { message: 'hi' }, fullAccess))).toBe('echo: hi')

    await mcp.mcp.updateServer('nasty', { name: 'A Very Different Display Name!' })
    expect(await mcpNames(tools)).toEqual(afterDisable)
    expect(tools.text(await tools.call('nasty__echo', { message: 'again' }, fullAccess))).toBe('echo: again')
  })

  it('tells the model a recorded call is no longer available, with the server state', async () => {
    const { mcp, tools } = await twoServers()
    await mcpNames(tools)
    await mcp.mcp.setEnabled('other', false)
    await mcpNames(tools)
    const result = await tools.call('other__echo', { message: 'x' }, fullAccess)
    expect(result.rawData.toolResult.error?.code).toBe('tool_unavailable')
    expect(tools.text(result)).toContain('no longer available')
    expect(tools.text(result)).toContain('MCP server "other" is switched off')
  })

  it('keep resolving a name recorded before the slug was edited, and offer the new one', async () => {
    const { mcp, tools } = await twoServers()
    await mcpNames(tools)
    const view = await mcp.mcp.updateServer('nasty', { slug: 'renamed' })
    expect(view.slug).toBe('renamed')
    const names = await mcpNames(tools)
    expect(names).toContain('renamed__echo')
    expect(names).not.toContain('nasty__echo')
    expect(tools.text(await tools.call('nasty__echo', { message: 'old' }, fullAccess))).toBe('echo: old')
    await expect(mcp.mcp.updateServer('other', { slug: 'renamed' })).rejects.toThrow(/already uses/)
  })

  it('are shown with their flags in the tool views of the settings page', async () => {
    const { mcp } = await twoServers()
    const views = mcp.mcp.listToolViews('nasty')
    expect(views.find((v) => v.name === 'echo')).toMatchObject({ exposedName: 'nasty__echo', nameFlags: [] })
  })
})

describe('exposeToolNames', () => {
  it('rewrites invalid names, shortens long ones and keeps two rewrites that meet apart', () => {
    const names = exposeToolNames('srv', ['bad name!', 'bad_name', 'x'.repeat(80), 'ok'])
    expect(names.get('ok')).toEqual({ name: 'srv__ok', flags: [] })
    // The valid name claims `srv__bad_name`; the rewritten one gets a hash.
    expect(names.get('bad_name')).toEqual({ name: 'srv__bad_name', flags: [] })
    const bad = names.get('bad name!')!
    expect(bad.flags).toEqual(['invalid_chars', 'deduplicated'])
    expect(bad.name).toMatch(/^srv__bad_name_[0-9a-f]{8}$/)
    const long = names.get('x'.repeat(80))!
    expect(long.flags).toEqual(['shortened'])
    expect(long.name).toHaveLength(64)
    for (const { name } of names.values()) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/)
  })

  it('depends on nothing but the slug and the tool names', () => {
    const tools = ['echo', 'get.events']
    expect(exposeToolNames('a', tools)).toEqual(exposeToolNames('a', [...tools]))
    expect(exposeToolNames('a', tools).get('get.events')?.name).toBe('a__get_events')
  })
})

describe('slugs of servers saved before slugs existed', () => {
  it('are their ids when valid, made valid and unique otherwise, and written once', async () => {
    const { McpConfigStore, MCP_CONFIG_DOCUMENT } =
      await import('../../../src/main/presenter/mcpPresenter/configStore')
    const server = (id: string) => ({ id, name: id, type: 'stdio', command: 'node', enabled: false })
    const documents = new Map<string, unknown>([
      [
        MCP_CONFIG_DOCUMENT,
        { version: 1, servers: [server('github'), server('my.server'), server('my-server')] }
      ]
    ])
    let writes = 0
    const backend = {
      getDocument: (key: string, schema: { parse(v: unknown): unknown }, fallback: unknown) =>
        documents.has(key) ? schema.parse(documents.get(key)) : fallback,
      setDocument: (key: string, schema: { parse(v: unknown): unknown }, value: unknown) => {
        writes++
        documents.set(key, schema.parse(value))
        return documents.get(key)
      },
      getSecret: async () => undefined,
      setSecret: async () => {},
      deleteSecret: async () => {}
    } as unknown as ConstructorParameters<typeof McpConfigStore>[0]
    const store = new McpConfigStore(backend)
    expect(store.list().map((s) => s.slug)).toEqual(['github', 'my-server-2', 'my-server'])
    expect(writes).toBe(1)
    expect(new McpConfigStore(backend).list().map((s) => s.slug)).toEqual([
      'github',
      'my-server-2',
      'my-server'
    ])
    expect(writes).toBe(1)
  })
})
