import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { call, textReply, useLoopHarness } from './helpers'
import { sessionsOfferedTools, sessionsUpdateSettings } from '@shared/contracts/routes/sessions.routes'
import { type OpenAiRequest } from '../../fixtures/llm/openAiRequest'

const harness = useLoopHarness()
const TEST_SERVER = join(import.meta.dirname, '../../fixtures/mcp/testServer.mjs')
const BIG_SERVER = join(import.meta.dirname, '../../fixtures/mcp/bigServer.mjs')
const requestNames = (body: OpenAiRequest): string[] => (body.tools ?? []).map((t) => t.function.name)

async function addServer(
  h: Awaited<ReturnType<ReturnType<typeof useLoopHarness>>>,
  id: string,
  file: string
) {
  await h.presenters.mcp.addServer({
    id,
    name: id === 't' ? 'Test server' : 'Big',
    type: 'stdio',
    command: process.execPath,
    args: [file],
    enabled: false
  })
  await h.presenters.mcp.startServer(id)
}

describe('sessions.offeredTools', () => {
  it("lists exactly the tools of the chat's next provider request, its switches applied", async () => {
    const h = await harness([textReply('one'), textReply('two'), textReply('three')])
    await addServer(h, 't', TEST_SERVER)
    const { sessionId } = await h.send('hello', { permissionMode: 'full_access' })
    await h.idle(sessionId)
    await call(h, sessionsUpdateSettings, { sessionId, patch: { tools: { read: false } } })

    const offered = await call(h, sessionsOfferedTools, { sessionId })
    await h.send('again', { sessionId })
    await h.idle(sessionId)
    const names = offered.tools.map((t) => t.name)
    expect(names).toEqual(requestNames(h.bodies()[1]))
    expect(names).not.toContain('read')
    expect(names).toContain('write')
    expect(offered.deferred).toBeNull()
    const echo = offered.tools.find((t) => t.name === 't__echo')
    expect(echo).toMatchObject({ source: 'mcp', serverId: 't', serverName: 'Test server' })
    expect(echo?.title.length).toBeGreaterThan(0)
    expect(offered.tools.find((t) => t.name === 'write')).toMatchObject({
      source: 'agent',
      labelKey: expect.stringContaining('write')
    })

    // The chat switches the server off: its tools leave the list and the request alike.
    await call(h, sessionsUpdateSettings, { sessionId, patch: { mcpServers: { t: false } } })
    const without = await call(h, sessionsOfferedTools, { sessionId })
    await h.send('third', { sessionId })
    await h.idle(sessionId)
    expect(without.tools.map((t) => t.name)).toEqual(requestNames(h.bodies()[2]))
    expect(without.tools.some((t) => t.serverId === 't')).toBe(false)
  }, 30_000)

  it('says when the MCP catalog waits behind tool_search, and lists what the request carries', async () => {
    const h = await harness([textReply('one'), textReply('two')])
    const { sessionId } = await h.send('hello', { permissionMode: 'full_access' })
    await h.idle(sessionId)
    await addServer(h, 'big', BIG_SERVER)

    const offered = await call(h, sessionsOfferedTools, { sessionId })
    await h.send('again', { sessionId })
    await h.idle(sessionId)
    expect(offered.tools.map((t) => t.name)).toEqual(requestNames(h.bodies()[1]))
    expect(offered.tools.map((t) => t.name)).toContain('tool_search')
    expect(offered.tools.some((t) => t.serverId === 'big')).toBe(false)
    expect(offered.deferred?.total).toBeGreaterThanOrEqual(1000)
  }, 30_000)

  it('refuses an unknown chat', async () => {
    const h = await harness([])
    await expect(call(h, sessionsOfferedTools, { sessionId: 'nope' })).rejects.toMatchObject({
      code: expect.stringContaining('not_found')
    })
  })
})
