import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import {
  CommandPermissionRequiredError,
  McpPermissionRequiredError,
  FilePermissionRequiredError
} from '../../../src/main/presenter/permission'
import { MAX_TOOL_NAME } from '../../../src/main/presenter/toolPresenter/toolMapper'
import { OUTPUT_SPILL_CHARS } from '../../../src/main/presenter/toolPresenter/outputGuard'
import { connectMcp, createHarness, type Harness } from './helpers'

const AGENT_TOOLS = [
  'read',
  'write',
  'edit',
  'glob',
  'grep',
  'exec',
  'process',
  'deepchat_question',
  'update_plan'
]

function weatherServer(): McpServer {
  const server = new McpServer({ name: 'weather', version: '1.0.0' })
  server.registerTool(
    'forecast',
    {
      description: 'Forecast for a city',
      inputSchema: { city: z.string() },
      annotations: { readOnlyHint: true }
    },
    async ({ city }) => ({
      content: [{ type: 'text', text: `Sunny in ${city}` }]
    })
  )
  // Same name as the built-in `read`: exposed as `weather__read`, never shadows it.
  server.registerTool(
    'read',
    { description: 'Read a weather station', inputSchema: { station: z.string() } },
    async ({ station }) => ({
      content: [{ type: 'text', text: `station ${station}: 21C` }]
    })
  )
  server.registerTool('fail', { description: 'Always fails', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'boom' }],
    isError: true
  }))
  server.registerTool('huge', { description: 'Returns a lot', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'w'.repeat(OUTPUT_SPILL_CHARS + 5000) }]
  }))
  return server
}

function calendarServer(): McpServer {
  const server = new McpServer({ name: 'calendar', version: '1.0.0' })
  // Same name as weather's tool: each is exposed under its own server's slug.
  server.registerTool('forecast', { description: 'Busy forecast', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'calendar is busy' }]
  }))
  server.registerTool('get.events', { description: 'Dotted name', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'no events' }]
  }))
  return server
}

let h: Harness
let closeMcp: (() => Promise<void>) | undefined
async function withMcp(): Promise<Harness> {
  const mcp = await connectMcp([
    { id: 'weather', name: 'weather', server: weatherServer() },
    { id: 'calendar', name: 'calendar', server: calendarServer() }
  ])
  closeMcp = () => mcp.close()
  h = createHarness({ mcp })
  return h
}
afterEach(async () => {
  await closeMcp?.()
  closeMcp = undefined
  await h?.close()
})

describe('getAllToolDefinitions', () => {
  it('lists MCP tools first under <slug>__<tool>, then built-ins, never dropping or shadowing', async () => {
    await withMcp()
    const defs = await h.tools.getAllToolDefinitions(h.ctx)
    expect(defs.map((d) => [d.source, d.function.name])).toEqual([
      ['mcp', 'weather__forecast'],
      ['mcp', 'weather__read'],
      ['mcp', 'weather__fail'],
      ['mcp', 'weather__huge'],
      ['mcp', 'calendar__forecast'],
      ['mcp', 'calendar__get_events'],
      ...AGENT_TOOLS.map((n) => ['agent', n])
    ])
    expect(defs.find((d) => d.function.name === 'read')?.source).toBe('agent')
    expect(defs.find((d) => d.function.name === 'weather__forecast')?.server).toMatchObject({ id: 'weather' })
  })

  it('generates JSON Schema from zod with defaults optional', async () => {
    h = createHarness()
    const defs = await h.tools.getAllToolDefinitions(h.ctx)
    const edit = defs.find((d) => d.function.name === 'edit')!
    expect(edit.function.parameters).toMatchObject({
      type: 'object',
      required: ['path', 'old_string', 'new_string'],
      additionalProperties: false
    })
    expect(edit.function.parameters.properties).toHaveProperty('replace_all')
    expect(edit.function.description).toContain('exactly once')
    expect(JSON.stringify(defs)).not.toContain('9007199254740991')
  })

  it('filters disabled built-ins and MCP servers not enabled for the session', async () => {
    await withMcp()
    const defs = await h.tools.getAllToolDefinitions({
      ...h.ctx,
      disabledAgentTools: ['exec', 'process'],
      enabledMcpServerIds: ['calendar']
    })
    const names = defs.map((d) => d.function.name)
    expect(names).not.toContain('exec')
    expect(names).not.toContain('weather__read')
    // With weather left out, calendar's tools keep the names they always have.
    expect(names.slice(0, 2)).toEqual(['calendar__forecast', 'calendar__get_events'])
    const blocked = await h.call('exec', { command: 'ls' }, { disabledAgentTools: ['exec'] })
    expect(blocked.rawData.toolResult.error?.code).toBe('unknown_tool')
  })

  it('keeps one mapping per session with no fallback between sessions', async () => {
    await withMcp()
    await h.tools.getAllToolDefinitions({ ...h.ctx, sessionId: 'a', enabledMcpServerIds: ['weather'] })
    await h.tools.getAllToolDefinitions({ ...h.ctx, sessionId: 'b', enabledMcpServerIds: ['calendar'] })
    h.gate.addRule({ kind: 'mcp', pattern: '*', effect: 'allow' })
    expect(
      h.text(
        await h.call(
          'weather__forecast',
          { city: 'Oslo' },
          { sessionId: 'a', enabledMcpServerIds: ['weather'] }
        )
      )
    ).toBe('Sunny in Oslo')
    expect(
      h.text(await h.call('calendar__forecast', {}, { sessionId: 'b', enabledMcpServerIds: ['calendar'] }))
    ).toBe('calendar is busy')
    expect(
      (await h.call('weather__read', { station: 'x' }, { sessionId: 'b' })).rawData.toolResult.error?.code
    ).toBe('unknown_tool')
    h.tools.clearSessionToolMapping('a')
    // Cleared: the next call rebuilds the mapping from this call's own context, not another session's.
    expect(
      (
        await h.call(
          'weather__forecast',
          { city: 'Rome' },
          { sessionId: 'a', enabledMcpServerIds: ['calendar'] }
        )
      ).rawData.toolResult.error?.code
    ).toBe('unknown_tool')
  })
})

describe('callTool routing and envelopes', () => {
  it('routes a renamed MCP tool to its server under its original name, asking first', async () => {
    await withMcp()
    const error = await h.call('weather__read', { station: 'KOSL' }).catch((e) => e)
    expect(error).toBeInstanceOf(McpPermissionRequiredError)
    expect(error.request).toMatchObject({
      type: 'mcp',
      tool: 'weather__read',
      server: 'weather',
      originalTool: 'read',
      reasonCodes: [{ code: 'mcp_call', params: { tool: 'read', server: 'weather' } }],
      suggestedRule: { pattern: 'weather/read' }
    })
    h.gate.decide(error.request, 'session')
    const result = await h.call('weather__read', { station: 'KOSL' })
    expect(result.content).toEqual([{ type: 'text', text: 'station KOSL: 21C' }])
    expect(result.rawData).toMatchObject({
      source: 'mcp',
      serverId: 'weather',
      isError: false,
      toolResult: { ok: true, summary: 'station KOSL: 21C' }
    })
    // The built-in read is untouched by the MCP tool of the same name.
    writeFileSync(join(h.workspace, 'a.txt'), 'local')
    expect(h.text(await h.call('read', { path: 'a.txt' }))).toBe('     1\tlocal')
  })

  it('marks an MCP error result and runs without asking in full_access', async () => {
    await withMcp()
    const result = await h.call('weather__fail', {}, { permissionMode: 'full_access' })
    expect(result.rawData).toMatchObject({
      isError: true,
      toolResult: { ok: false, error: { code: 'mcp_tool_error', message: 'boom' } }
    })
  })

  it('repairs sloppy JSON and reports unusable arguments back to the model', async () => {
    h = createHarness()
    writeFileSync(join(h.workspace, 'a.txt'), 'x')
    const repaired = await h.call('read', "{path: 'a.txt',}")
    expect(h.text(repaired)).toBe('     1\tx')
    const broken = await h.call('read', '[1, 2]')
    expect(broken.rawData.toolResult.error).toEqual({
      code: 'invalid_arguments',
      message: 'Invalid arguments for read: Arguments must be a JSON object.'
    })
    const wrongType = await h.call('read', { path: 42 })
    expect(wrongType.rawData.toolResult.error?.message).toMatch(/^Invalid arguments for read: path: /)
    const extra = await h.call('read', { path: 'a.txt', bogus: 1 })
    expect(extra.rawData.toolResult.error?.message).toContain('bogus')
    const unknown = await h.call('no_such_tool', {})
    expect(unknown).toMatchObject({
      content: [
        { type: 'text', text: 'Error: Unknown tool: no_such_tool. Call only the tools you were given.' }
      ],
      rawData: { isError: true, source: null }
    })
  })

  it('accepts common alternative argument names without showing them in the schema', async () => {
    h = createHarness()
    writeFileSync(join(h.workspace, 'a.txt'), 'one two')
    const edited = await h.call('edit', { file_path: 'a.txt', oldText: 'two', newText: 'three' })
    expect(edited.rawData.isError).toBe(false)
    expect(readFileSync(join(h.workspace, 'a.txt'), 'utf8')).toBe('one three')
    // The canonical key wins when both are sent.
    const both = await h.call('read', { path: 'a.txt', file_path: 'missing.txt' })
    expect(h.text(both)).toBe('     1\tone three')
    const defs = await h.tools.getAllToolDefinitions(h.ctx)
    expect(Object.keys(defs.find((d) => d.function.name === 'edit')!.function.parameters.properties)).toEqual(
      ['path', 'old_string', 'new_string', 'replace_all']
    )
  })

  it('spills output over 30,000 characters to the session data folder with a preview', async () => {
    await withMcp()
    const result = await h.call('weather__huge', {}, { permissionMode: 'full_access' })
    const spilled = result.rawData.spilled!
    expect(spilled.totalChars).toBe(OUTPUT_SPILL_CHARS + 5000)
    expect(spilled.path.startsWith(join(h.dataRoot, 'session-1'))).toBe(true)
    expect(readFileSync(spilled.path, 'utf8')).toHaveLength(OUTPUT_SPILL_CHARS + 5000)
    const text = h.text(result)
    expect(text).toContain(`${OUTPUT_SPILL_CHARS + 5000} characters`)
    expect(text).toContain(spilled.path)
    expect(text.length).toBeLessThan(3000)
    // The model can read its own spilled output without asking.
    const read = await h.call('read', { path: spilled.path })
    expect(read.rawData.isError).toBe(false)
  })

  it('returns a deny-rule refusal as an error result, even in full_access', async () => {
    h = createHarness()
    h.gate.addRule({ kind: 'exec', pattern: 'git push*', effect: 'deny' })
    const result = await h.call(
      'exec',
      { command: 'git push origin main' },
      { permissionMode: 'full_access' }
    )
    expect(result.rawData.toolResult.error).toEqual({
      code: 'permission_denied',
      message: 'Denied by rule exec: git push*'
    })
  })

  it('treats an unknown permission mode as default', async () => {
    h = createHarness()
    await expect(h.call('exec', { command: 'touch x' }, { permissionMode: 'yolo' })).rejects.toBeInstanceOf(
      CommandPermissionRequiredError
    )
    await expect(
      h.call('read', { path: join(h.root, 'x') }, { permissionMode: null })
    ).rejects.toBeInstanceOf(FilePermissionRequiredError)
  })

  it('pre-check reports invalid calls and deny rules without throwing', async () => {
    h = createHarness()
    expect(
      await h.tools.preCheckToolPermission({ id: '1', name: 'read', arguments: '{}' }, h.ctx)
    ).toMatchObject({ status: 'invalid' })
    h.gate.addRule({ kind: 'read', pattern: `${h.root}/**`, effect: 'deny' })
    expect(
      await h.tools.preCheckToolPermission(
        { id: '2', name: 'read', arguments: JSON.stringify({ path: join(h.root, 'x') }) },
        h.ctx
      )
    ).toMatchObject({ status: 'denied' })
  })
})

describe('deepchat_question and update_plan', () => {
  it('returns a question interaction for the loop', async () => {
    h = createHarness()
    const result = await h.call('deepchat_question', {
      header: 'Pick',
      question: 'Which DB?',
      options: [{ label: 'SQLite' }, { label: 'Postgres', description: 'server' }]
    })
    expect(result.rawData.interaction).toEqual({
      kind: 'question',
      question: {
        header: 'Pick',
        question: 'Which DB?',
        options: [{ label: 'SQLite' }, { label: 'Postgres', description: 'server' }],
        multiple: false,
        custom: true
      }
    })
    const tooMany = await h.call('deepchat_question', {
      question: 'q',
      options: Array.from({ length: 11 }, (_, i) => ({ label: `o${i}` }))
    })
    expect(tooMany.rawData.toolResult.error?.code).toBe('invalid_arguments')
    const unknownKey = await h.call('deepchat_question', {
      question: 'q',
      options: [{ label: 'a' }],
      questions: []
    })
    expect(unknownKey.rawData.toolResult.error?.message).toContain('questions')
  })

  it('publishes full plan snapshots with increasing revisions and enforces the limits', async () => {
    h = createHarness()
    await h.call('update_plan', {
      plan: [
        { step: 'a', status: 'in_progress' },
        { step: 'b', status: 'pending' }
      ]
    })
    const second = await h.call('update_plan', {
      explanation: 'a done',
      plan: [
        { step: 'a', status: 'completed' },
        { step: 'b', status: 'in_progress' }
      ]
    })
    expect(h.runtime.plans.map((p) => p.revision)).toEqual([1, 2])
    expect(h.runtime.plans[1]).toMatchObject({
      sessionId: 'session-1',
      toolCallId: second.rawData.toolCallId,
      explanation: 'a done',
      plan: [
        { step: 'a', status: 'completed' },
        { step: 'b', status: 'in_progress' }
      ]
    })
    const twoActive = await h.call('update_plan', {
      plan: [
        { step: 'a', status: 'in_progress' },
        { step: 'b', status: 'in_progress' }
      ]
    })
    expect(twoActive.rawData.toolResult.error?.message).toContain('at most one step may be in_progress')
    const thirteen = await h.call('update_plan', {
      plan: Array.from({ length: 13 }, (_, i) => ({ step: `s${i}`, status: 'pending' }))
    })
    expect(thirteen.rawData.toolResult.error?.code).toBe('invalid_arguments')
    h.tools.clearSessionToolMapping('session-1')
    await h.call('update_plan', { plan: [] })
    expect(h.runtime.plans.at(-1)?.revision).toBe(1)
  })
})

describe('buildToolSystemPrompt', () => {
  it('describes only the built-ins that are present', async () => {
    h = createHarness()
    const all = h.tools.buildToolSystemPrompt(await h.tools.getAllToolDefinitions(h.ctx))
    expect(all).toContain('Never search with exec')
    expect(all).toContain('update_plan')
    const few = h.tools.buildToolSystemPrompt(
      await h.tools.getAllToolDefinitions({
        ...h.ctx,
        disabledAgentTools: ['exec', 'process', 'update_plan', 'grep', 'glob']
      })
    )
    expect(few).not.toContain('exec')
    expect(few).not.toContain('update_plan')
    expect(few).toContain('deepchat_question')
  })
})

describe('ToolMapper names', () => {
  it('never overwrites a taken name: a clash gets a stable hash suffix within 64 characters', async () => {
    const { ToolMapper } = await import('../../../src/main/presenter/toolPresenter/toolMapper')
    const mapper = new ToolMapper(new Set(['read']))
    mapper.registerAgentTool('read', 'agent-filesystem')
    const clash = mapper.registerMcpTool({ serverId: 'fs', name: 'read', exposedName: 'read' })
    expect(clash).toMatch(/^read_[0-9a-f]{8}$/)
    expect(mapper.resolve('read')).toMatchObject({ source: 'agent' })
    const long = 'x'.repeat(MAX_TOOL_NAME)
    const a = mapper.registerMcpTool({ serverId: 'a', name: 'tool', exposedName: long })
    const b = mapper.registerMcpTool({ serverId: 'b', name: 'tool', exposedName: long })
    expect(new Set([a, b]).size).toBe(2)
    for (const [name] of mapper.entries()) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/)
    expect(mapper.resolve(b)).toMatchObject({ source: 'mcp', serverId: 'b', originalName: 'tool' })
    expect(mapper.nameOf('b', 'tool')).toBe(b)
  })
})

describe('failures outside the tools', () => {
  it('keeps the built-ins when listing MCP tools fails, and reports a failing MCP call as a result', async () => {
    let listFails = true
    h = createHarness({
      mcp: {
        listTools: async () => {
          if (listFails) throw new Error('server crashed')
          return [
            {
              serverId: 'flaky',
              serverName: 'flaky',
              name: 'ping',
              exposedName: 'flaky__ping',
              description: 'ping',
              inputSchema: { type: 'object', properties: {} }
            }
          ]
        },
        callTool: async () => {
          throw new Error('connection closed')
        }
      }
    })
    expect((await h.tools.getAllToolDefinitions(h.ctx)).map((d) => d.function.name)).toEqual(AGENT_TOOLS)
    listFails = false
    await h.tools.getAllToolDefinitions(h.ctx)
    const result = await h.call('flaky__ping', {}, { permissionMode: 'full_access' })
    expect(result.rawData).toMatchObject({
      isError: true,
      source: 'mcp',
      toolResult: { ok: false, error: { code: 'mcp_call_failed', message: 'connection closed' } }
    })
  })

  it("honours a server's autoApproveTools, but a deny rule still wins", async () => {
    const mcp = await connectMcp([{ id: 'weather', name: 'weather', server: weatherServer() }])
    closeMcp = () => mcp.close()
    h = createHarness({
      mcp,
      mcpAutoApprove: (serverId, tool) => serverId === 'weather' && tool === 'forecast'
    })
    expect(h.text(await h.call('weather__forecast', { city: 'Oslo' }))).toBe('Sunny in Oslo')
    await expect(h.call('weather__fail', {})).rejects.toBeInstanceOf(McpPermissionRequiredError)
    h.gate.addRule({ kind: 'mcp', pattern: 'weather/forecast', effect: 'deny' })
    expect((await h.call('weather__forecast', { city: 'Oslo' })).rawData.toolResult.error?.code).toBe(
      'permission_denied'
    )
  })

  it('does not run a tool whose call was already cancelled', async () => {
    h = createHarness()
    const controller = new AbortController()
    controller.abort()
    const result = await h.call('write', { path: 'never.txt', content: 'x' }, { signal: controller.signal })
    expect(result.rawData.toolResult.error?.code).toBe('aborted')
    expect(h.runtime.snapshots).toEqual([])
  })
})
