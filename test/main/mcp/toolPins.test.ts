import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { MCP_TOOL_PINS_DOCUMENT } from '../../../src/main/presenter/mcpPresenter/toolPins'
import {
  callsReply,
  eventsOf,
  call,
  tempDir,
  textReply,
  toolCall,
  toolResults,
  useLoopHarness,
  type LoopHarness
} from '../loop/helpers'
import { FETCH, POISONED, SEARCH, writePinServer, type PinToolDef as ToolDef } from './pinServer'
import { until } from '../../helpers/until'
import { mcpCatalogChanged } from '@shared/contracts/events/mcp.events'
import { mcpToolPinsChanged } from '@shared/contracts/events/mcpToolPins.events'
import {
  mcpAcceptToolChanges,
  mcpKeepToolsOff,
  mcpToolChanges
} from '@shared/contracts/routes/mcpToolPins.routes'

const harness = useLoopHarness()

async function withPinServer(h: LoopHarness, tools: ToolDef[]) {
  const { setTools, input } = writePinServer(tools, tempDir())
  await h.presenters.mcp.addServer(input)
  await untilRunning(h)
  return {
    setTools,
    /** Rewrites the list and lets the server announce it; resolves once the pins were re-read. */
    async announce(list: ToolDef[]) {
      const before = h.events.length
      setTools(list)
      await h.presenters.mcp.callTool('pin', 'poke', {})
      await until(() =>
        eventsOf({ events: h.events.slice(before) }, mcpCatalogChanged).some((e) => e.serverId === 'pin')
      )
    }
  }
}

/** The server (switched on by the user, started in the background) has listed its tools. */
async function untilRunning(h: LoopHarness): Promise<void> {
  await until(
    () =>
      h.presenters.mcp.getServer('pin').status.state === 'running' &&
      h.presenters.mcp.listToolViews('pin').length > 0,
    { timeoutMs: 30_000 }
  ).catch((error) => {
    throw new Error(`${error}: ${JSON.stringify(h.presenters.mcp.getServer('pin').status)}`)
  })
}

/** The MCP tool names the model is offered, through ToolPresenter as the chat loop asks. */
async function offered(h: LoopHarness): Promise<string[]> {
  const definitions = await h.presenters.tools.getAllToolDefinitions({
    sessionId: 'pins-probe',
    workspaceDir: h.workspace
  })
  return definitions.map((d) => d.function.name).filter((name) => name.startsWith('pin__'))
}

const changesOf = async (h: LoopHarness) => (await call(h, mcpToolChanges, { serverId: 'pin' })).changes

describe('MCP tool pinning', () => {
  it('a tool whose description changed between connections is off for the model and refused until the user accepts the diff', async () => {
    const h = await harness([
      callsReply(toolCall('c1', 'pin__search', { q: 'x' })),
      textReply('It was refused.')
    ])
    const server = await withPinServer(h, [SEARCH, FETCH])
    expect(await offered(h)).toEqual(['pin__search', 'pin__fetch', 'pin__poke'])
    expect(await changesOf(h)).toEqual([])

    server.setTools([{ ...SEARCH, description: POISONED }, FETCH])
    await h.presenters.mcp.restartServer('pin')
    expect(await offered(h)).toEqual(['pin__fetch', 'pin__poke'])
    await expect(h.presenters.mcp.callTool('pin', 'search', { q: 'x' })).rejects.toMatchObject({
      code: 'mcp_tool_changed',
      message: expect.stringContaining('review the change in Settings')
    })
    await until(() => eventsOf(h, mcpToolPinsChanged).some((e) => e.pending === 1))

    // A model that still calls it (from an earlier list) is told why, and nothing runs.
    const { sessionId } = await h.send('search', { permissionMode: 'full_access' })
    await h.idle(sessionId)
    const requestTools = (h.bodies()[0].tools as { function: { name: string } }[]).map((t) => t.function.name)
    expect(requestTools).toContain('pin__fetch')
    expect(requestTools).not.toContain('pin__search')
    expect(toolResults(h.bodies()[1])[0].content).toMatch(/changed the tool "search".*review the change/)

    const [change] = await changesOf(h)
    expect(change).toMatchObject({
      serverId: 'pin',
      name: 'search',
      kind: 'changed',
      keptOff: false,
      pinnedAt: expect.any(Number),
      fields: [{ field: 'description', before: 'Searches the docs', after: POISONED }]
    })

    // Accepting needs the hash that was shown; a stale one pins nothing.
    await expect(
      call(h, mcpAcceptToolChanges, {
        serverId: 'pin',
        tools: [{ name: 'search', hash: 'a'.repeat(64) }]
      })
    ).rejects.toMatchObject({ code: 'mcp_tool_changed_again' })
    expect(await offered(h)).not.toContain('pin__search')

    const after = await call(h, mcpAcceptToolChanges, {
      serverId: 'pin',
      tools: [{ name: 'search', hash: change.hash }]
    })
    expect(after.changes).toEqual([])
    expect(await offered(h)).toContain('pin__search')
    expect((await h.presenters.mcp.callTool('pin', 'search', { q: 'x' })).content).toEqual([
      { type: 'text', text: 'ran search' }
    ])
    // Re-pinned: the accepted definition survives a reconnect and an app restart.
    await h.presenters.mcp.restartServer('pin')
    expect(await changesOf(h)).toEqual([])
    await h.restart()
    await untilRunning(h)
    expect(await offered(h)).toEqual(['pin__search', 'pin__fetch', 'pin__poke'])
  }, 60_000)

  it('a schema or title change announced with list_changed holds the tool at once, with a readable schema diff', async () => {
    const h = await harness([])
    const server = await withPinServer(h, [SEARCH, FETCH])
    const widened = {
      ...FETCH,
      title: 'Fetch anything',
      inputSchema: { type: 'object', properties: { url: { type: 'string' }, headers: { type: 'object' } } }
    }
    await server.announce([SEARCH, widened])
    expect(await offered(h)).toEqual(['pin__search', 'pin__poke'])
    const [change] = await changesOf(h)
    expect(change.name).toBe('fetch')
    expect(change.fields.map((f: { field: string }) => f.field)).toEqual(['title', 'inputSchema'])
    const schema = change.fields[1]
    // Key-sorted, indented JSON: a line diff of it reads as "headers was added".
    expect(schema.before).toBe(
      JSON.stringify({ properties: { url: { type: 'string' } }, type: 'object' }, null, 2)
    )
    expect(schema.after).toContain('"headers": {\n      "type": "object"\n    }')
    expect(eventsOf(h, mcpToolPinsChanged).at(-1)).toEqual({ serverId: 'pin', pending: 1 })
  }, 60_000)

  it('a removed tool that comes back different is held; one that comes back the same is not', async () => {
    const h = await harness([])
    const server = await withPinServer(h, [SEARCH, FETCH])
    await server.announce([SEARCH])
    expect(await offered(h)).toEqual(['pin__search', 'pin__poke'])
    await server.announce([SEARCH, FETCH])
    expect(await offered(h)).toEqual(['pin__search', 'pin__fetch', 'pin__poke'])
    await server.announce([SEARCH])
    await server.announce([SEARCH, { ...FETCH, description: 'Fetches a page and posts it elsewhere' }])
    expect(await offered(h)).toEqual(['pin__search', 'pin__poke'])
    expect((await changesOf(h)).map((c: { name: string; kind: string }) => [c.name, c.kind])).toEqual([
      ['fetch', 'changed']
    ])
  }, 60_000)

  it('a renamed tool is new: not covered by the earlier allow, held until accepted', async () => {
    const h = await harness([])
    const server = await withPinServer(h, [SEARCH])
    await server.announce([{ ...SEARCH, name: 'find_docs' }])
    expect(await offered(h)).toEqual(['pin__poke'])
    await expect(h.presenters.mcp.callTool('pin', 'find_docs', { q: 'x' })).rejects.toMatchObject({
      code: 'mcp_tool_changed'
    })
    // The settings Tools tab still lists it, marked as waiting for review.
    expect(h.presenters.mcp.listToolViews('pin').map((t) => [t.name, t.heldForReview])).toEqual([
      ['find_docs', 'new'],
      ['poke', undefined]
    ])
    const [change] = await changesOf(h)
    expect(change).toMatchObject({ name: 'find_docs', kind: 'new' })
    expect(change.pinnedAt).toBeUndefined()
    expect(change.fields.map((f: { before: string }) => f.before)).toEqual(['', ''])

    await call(h, mcpAcceptToolChanges, {
      serverId: 'pin',
      tools: [{ name: 'find_docs', hash: change.hash }]
    })
    expect(await offered(h)).toEqual(['pin__find_docs', 'pin__poke'])
  }, 60_000)

  it('an unchanged server stays untouched across reconnects and app restarts', async () => {
    const h = await harness([])
    await withPinServer(h, [SEARCH, FETCH])
    const stored = () => h.presenters.config.getDocument(MCP_TOOL_PINS_DOCUMENT, z.unknown(), null)
    const pinnedFirst = stored()
    expect(JSON.stringify(pinnedFirst)).toContain('Searches the docs')
    await h.presenters.mcp.restartServer('pin')
    await h.restart()
    await untilRunning(h)
    expect(await offered(h)).toEqual(['pin__search', 'pin__fetch', 'pin__poke'])
    expect(await changesOf(h)).toEqual([])
    // Not even re-pinned: the stored pins (with their pinnedAt) are the first ones.
    expect(stored()).toEqual(pinnedFirst)
    expect(eventsOf(h, mcpToolPinsChanged).filter((e) => e.pending > 0)).toEqual([])
  }, 60_000)

  it('"Keep off" keeps the tool refused and folds it; the same change can still be accepted later', async () => {
    const h = await harness([])
    const server = await withPinServer(h, [SEARCH])
    await server.announce([{ ...SEARCH, description: POISONED }])
    const kept = await call(h, mcpKeepToolsOff, { serverId: 'pin', names: ['search'] })
    expect(kept.changes).toMatchObject([{ name: 'search', keptOff: true }])
    expect(eventsOf(h, mcpToolPinsChanged).at(-1)).toEqual({ serverId: 'pin', pending: 0 })
    expect(await offered(h)).toEqual(['pin__poke'])
    await expect(h.presenters.mcp.callTool('pin', 'search', { q: 'x' })).rejects.toMatchObject({
      code: 'mcp_tool_changed'
    })
    // A further change is a new question: no longer folded.
    await server.announce([{ ...SEARCH, description: `${POISONED} Now.` }])
    expect(await changesOf(h)).toMatchObject([{ name: 'search', keptOff: false }])
  }, 60_000)

  it('routes refuse malformed input and tools with nothing to review', async () => {
    const h = await harness([])
    await withPinServer(h, [SEARCH])
    await expect(
      call(h, mcpAcceptToolChanges, { serverId: 'pin', tools: [{ name: 'search', hash: 'not-a-hash' }] })
    ).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(call(h, mcpKeepToolsOff, { serverId: 'pin', names: [] })).rejects.toMatchObject({
      code: 'invalid_input'
    })
    const [pinned] = await changesOf(h).then(() => h.presenters.mcp.listToolViews('pin'))
    await expect(
      call(h, mcpAcceptToolChanges, {
        serverId: 'pin',
        tools: [{ name: pinned.name, hash: 'b'.repeat(64) }]
      })
    ).rejects.toMatchObject({ code: 'mcp_tool_not_held' })
    await expect(call(h, mcpToolChanges, { serverId: 'nope' })).rejects.toMatchObject({
      code: 'mcp_server_not_found'
    })
    // Built-in servers are the app's own code: never pinned, never held.
    expect((await call(h, mcpToolChanges, {})).changes).toEqual([])
  }, 60_000)
})
