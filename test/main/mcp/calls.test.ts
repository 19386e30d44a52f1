import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { mcpCatalogChanged } from '@shared/contracts/events/mcp.events'
import { createHarness, testServerInput, type Harness } from './harness'
import { until } from '../../helpers/until'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

async function startTestServer(env: Record<string, string> = {}, extra: Record<string, unknown> = {}) {
  h = createHarness()
  await h.mcp.addServer({ ...testServerInput('t', env), enabled: false, ...extra })
  const status = (await h.mcp.startServer('t')).status
  expect(status.state).toBe('running')
  return h
}

describe('McpPresenter tool calls against an SDK server over stdio', () => {
  it('lists tools with annotations and calls one', async () => {
    const { mcp } = await startTestServer()
    const tools = await mcp.listTools()
    const echo = tools.find((t) => t.name === 'echo')
    expect(echo).toMatchObject({ serverId: 't', serverName: 't', annotations: { readOnlyHint: true } })
    expect(echo?.inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } })
    const result = await mcp.callTool('t', 'echo', { message: 'hi' })
    expect(result).toEqual({ content: [{ type: 'text', text: 'echo: hi' }], isError: false })
    expect(mcp.getServer('t').status.serverInfo).toEqual({ name: 'test-server', version: '1.2.3' })
  })

  it('hides disabled tools and refuses to call them', async () => {
    const { mcp } = await startTestServer({}, { disabledTools: ['echo'] })
    expect((await mcp.listTools()).map((t) => t.name)).not.toContain('echo')
    expect(mcp.listToolViews('t').find((t) => t.name === 'echo')?.disabled).toBe(true)
    await expect(mcp.callTool('t', 'echo', { message: 'x' })).rejects.toMatchObject({
      code: 'mcp_tool_disabled'
    })
  })

  it('times out a slow tool with the per-server timeout', async () => {
    const { mcp } = await startTestServer({}, { timeoutMs: 1_000 })
    const started = Date.now()
    await expect(mcp.callTool('t', 'slow', { ms: 30_000 })).rejects.toMatchObject({
      code: 'mcp_timeout',
      message: expect.stringContaining('did not answer within 1 s')
    })
    // Far sooner than the tool would have answered (generous for a loaded machine).
    expect(Date.now() - started).toBeLessThan(10_000)
    // The server is still usable afterwards.
    expect((await mcp.callTool('t', 'echo', { message: 'after' })).content).toEqual([
      { type: 'text', text: 'echo: after' }
    ])
  })

  it('forwards progress notifications', async () => {
    const { mcp } = await startTestServer()
    const seen: { progress: number; total?: number; message?: string }[] = []
    const result = await mcp.callTool('t', 'progress', { steps: 3 }, { onProgress: (p) => seen.push(p) })
    expect(result.content).toEqual([{ type: 'text', text: 'done 3' }])
    expect(seen).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' }
    ])
  })

  it('sends notifications/cancelled to the server when the signal aborts', async () => {
    h = createHarness()
    const marker = join(h.dir, 'cancelled.txt')
    await h.mcp.addServer({ ...testServerInput('t', { CANCEL_MARKER: marker }), enabled: false })
    await h.mcp.startServer('t')
    const controller = new AbortController()
    const call = h.mcp.callTool('t', 'wait_for_cancel', {}, { signal: controller.signal })
    const said = () => (existsSync(marker) ? readFileSync(marker, 'utf8') : '')
    await until(() => said() === 'waiting') // the server runs the call
    controller.abort('user pressed stop')
    await expect(call).rejects.toMatchObject({ code: 'mcp_cancelled' })
    await until(() => said().startsWith('cancelled'))
  })

  it('maps image, audio, embedded resource and resource_link results', async () => {
    const { mcp } = await startTestServer()
    const result = await mcp.callTool('t', 'media', {})
    expect(result.isError).toBe(false)
    expect(result.content.map((c) => c.type)).toEqual(['text', 'image', 'audio', 'resource', 'resource_link'])
    expect(result.content[1]).toMatchObject({ type: 'image', mimeType: 'image/png' })
    expect(result.content[3]).toEqual({
      type: 'resource',
      resource: { uri: 'test://doc/1', mimeType: 'text/plain', text: 'embedded text' }
    })
    expect(result.content[4]).toEqual({
      type: 'resource_link',
      uri: 'test://doc/2',
      name: 'doc 2',
      mimeType: 'text/plain'
    })
  })

  it('keeps structuredContent and isError', async () => {
    const { mcp } = await startTestServer()
    const structured = await mcp.callTool('t', 'structured', {})
    expect(structured.structuredContent).toEqual({ total: 42 })
    expect(structured.content).toEqual([{ type: 'text', text: '{"total":42}' }])
    const failed = await mcp.callTool('t', 'fails', {})
    expect(failed).toEqual({ isError: true, content: [{ type: 'text', text: 'it broke' }] })
  })

  it('refreshes the tool list on tools/list_changed; a new tool waits for review (tool pinning)', async () => {
    const { mcp } = await startTestServer()
    expect((await mcp.listTools()).some((t) => t.name === 'added_1')).toBe(false)
    const before = h!.eventsNamed(mcpCatalogChanged).length
    await mcp.callTool('t', 'add_tool', {})
    await h!.waitForEvent(mcpCatalogChanged.name, () => h!.eventsNamed(mcpCatalogChanged).length > before)
    await until(() => mcp.listToolViews('t').some((t) => t.name === 'added_1'))
    expect((await mcp.listTools()).some((t) => t.name === 'added_1')).toBe(false)
    const [change] = mcp.toolChanges('t')
    expect(change).toMatchObject({ name: 'added_1', kind: 'new' })
    mcp.acceptToolChanges('t', [{ name: 'added_1', hash: change.hash }])
    expect((await mcp.listTools()).some((t) => t.name === 'added_1')).toBe(true)
    expect((await mcp.callTool('t', 'added_1', {})).content).toEqual([{ type: 'text', text: 'added_1' }])
  })

  it('lists and reads prompts, resources and templates', async () => {
    const { mcp } = await startTestServer()
    expect(mcp.listPrompts('t', 'greet')).toEqual([
      { serverId: 't', name: 'greet', description: 'Greets', arguments: [{ name: 'who', required: true }] }
    ])
    const prompt = await mcp.getPrompt('t', 'greet', { who: 'Ada' })
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }])
    const { resources, templates } = mcp.listResources('t')
    expect(resources).toEqual([
      { serverId: 't', uri: 'test://readme', name: 'readme', description: 'Readme', mimeType: 'text/plain' }
    ])
    expect(templates.map((t) => t.uriTemplate)).toEqual(['test://doc/{id}'])
    expect(await mcp.readResource('t', 'test://doc/7')).toEqual([{ uri: 'test://doc/7', text: 'doc 7' }])
  })

  it('fails clearly for an unknown tool or a stopped server', async () => {
    const { mcp } = await startTestServer()
    await expect(mcp.callTool('t', 'nope', {})).rejects.toMatchObject({ code: 'mcp_tool_not_found' })
    await mcp.stopServer('t')
    await expect(mcp.callTool('t', 'echo', { message: 'x' })).rejects.toMatchObject({
      code: 'mcp_server_unavailable',
      message: 'MCP server "t" is stopped'
    })
    expect(await mcp.listTools()).toEqual([])
  })
})
