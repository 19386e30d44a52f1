import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createPresenters } from '../../../src/main/presenter'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { createTimeServer } from '../../../src/main/presenter/mcpPresenter/inMemoryServers/timeServer'
import { createHarness, type Harness } from './harness'
import { until } from '../../helpers/until'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

async function connect(now: Date) {
  const server = createTimeServer(() => now)
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair()
  await server.connect(serverEnd)
  const client = new Client({ name: 't', version: '1' })
  await client.connect(clientEnd)
  return client
}

describe('built-in deepchat-time server', () => {
  it('is added on first launch, runs in memory and is auto-approved', async () => {
    h = createHarness()
    await h.mcp.startEnabledServers()
    const view = h.mcp.getServer('deepchat-time')
    expect(view).toMatchObject({ type: 'inmemory', command: 'deepchat-time', status: { state: 'running' } })
    const tools = (await h.mcp.listTools()).filter((t) => t.serverId === 'deepchat-time')
    expect(tools.map((t) => [t.name, t.annotations?.readOnlyHint])).toEqual([
      ['current_time', true],
      ['convert_time', true]
    ])
    expect(h.mcp.isAutoApproved('deepchat-time', 'current_time')).toBe(true)
    const result = await h.mcp.callTool('deepchat-time', 'current_time', { timezone: 'UTC' })
    expect(result.structuredContent).toMatchObject({ timezone: 'UTC', utcOffset: '+00:00' })

    // Removing it sticks: the next launch does not add it back.
    await h.mcp.removeServer('deepchat-time')
    await h.mcp.startEnabledServers()
    expect(h.mcp.listServers().map((s) => s.id)).not.toContain('deepchat-time')
  })

  it('gives the time in a zone and converts across zones, DST included', async () => {
    const client = await connect(new Date('2026-07-01T12:00:00Z'))
    const now = await client.callTool({ name: 'current_time', arguments: { timezone: 'America/New_York' } })
    expect(now.structuredContent).toEqual({
      timezone: 'America/New_York',
      datetime: '2026-07-01T08:00:00-04:00',
      weekday: 'Wednesday',
      utcOffset: '-04:00'
    })
    const converted = await client.callTool({
      name: 'convert_time',
      arguments: { time: '09:30', from_timezone: 'Europe/Paris', to_timezone: 'Asia/Tokyo' }
    })
    expect(converted.structuredContent).toMatchObject({
      source: { datetime: '2026-07-01T09:30:00+02:00' },
      target: { datetime: '2026-07-01T16:30:00+09:00' }
    })
    const bad = await client.callTool({ name: 'current_time', arguments: { timezone: 'Mars/Olympus' } })
    expect(bad).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Unknown time zone: Mars/Olympus' }]
    })
    await client.close()
  })
})

describe('built-in deepchat-history server', () => {
  it('searches past conversations through the real session presenter, once the user enables it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-history-'))
    const presenters = createPresenters(createNodePlatform({ dataDir: dir, log: () => {} }), {
      log: () => {}
    })
    try {
      const recipes = presenters.sessions.create({ title: 'Recipes' })
      presenters.sessions.messages.appendUserMessage(recipes.id, { text: 'how long to simmer ramen broth' })
      presenters.sessions.create({ title: 'Travel' })
      await presenters.mcp.startEnabledServers()
      expect(presenters.mcp.getServer('deepchat-history')).toMatchObject({
        enabled: false,
        status: { state: 'stopped' }
      })

      await presenters.mcp.setEnabled('deepchat-history', true)
      await until(() => presenters.mcp.getServer('deepchat-history').status.state === 'running', {
        what: 'the history server runs',
        timeoutMs: 2_000
      })
      const found = await presenters.mcp.callTool('deepchat-history', 'search_conversations', {
        query: 'ramen'
      })
      expect(found.structuredContent).toMatchObject({
        hits: [{ conversation: 'Recipes', sessionId: recipes.id, text: expect.stringContaining('ramen') }]
      })
      const none = await presenters.mcp.callTool('deepchat-history', 'search_conversations', {
        query: 'volcano'
      })
      expect(none.content).toEqual([{ type: 'text', text: 'No past conversation mentions "volcano".' }])
    } finally {
      await presenters.dispose()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
