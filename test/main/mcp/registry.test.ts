import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { OFFICIAL_MCP_REGISTRY_URL } from '@shared/types/mcpRegistry'
import {
  mcpRegistryGetSettings,
  mcpRegistryList,
  mcpRegistryUpdateSettings
} from '@shared/contracts/routes/mcpRegistry.routes'
import { createHarness, type Harness } from './harness'
import { registryItem, startFakeRegistry, type FakeRegistry } from '../../fixtures/registry/fakeRegistry'
import { startHttpProxy } from '../../fixtures/network/proxies'
import { createPresenters } from '../../../src/main/presenter'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createRouter } from '../../../src/main/routes'
import { useTempDirs } from '../helpers/tempDir'
import { RegistryCache } from '../../../src/main/presenter/mcpPresenter/registry/registryCache'

const cleanups: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
const tempDir = useTempDirs()

function harness(): Harness {
  const h = createHarness({
    registryAllowLoopbackHttp: true,
    shellEnv: async () => ({ PATH: process.env.PATH ?? '' })
  })
  cleanups.push(() => h.close())
  return h
}

async function registry(options: Parameters<typeof startFakeRegistry>[0]): Promise<FakeRegistry> {
  const started = await startFakeRegistry(options)
  cleanups.push(() => started.close())
  return started
}

/** `count` npm servers named io.github.acme/server-<n>, the odd ones about weather. */
function catalog(count: number) {
  return Array.from({ length: count }, (_, n) =>
    registryItem({
      name: `io.github.acme/server-${n}`,
      description: n % 2 ? `Weather forecasts, part ${n}` : `Files and folders, part ${n}`,
      version: `1.${n}.0`,
      repository: { url: `https://github.com/acme/server-${n}`, source: 'github' },
      packages: [
        {
          registryType: 'npm',
          identifier: `@acme/server-${n}`,
          version: `1.${n}.0`,
          transport: { type: 'stdio' }
        }
      ]
    })
  )
}

describe('MCP registry: browsing', () => {
  it('pages through the registry with its cursor and shows each server with publisher, version, source link and official status', async () => {
    const fake = await registry({ items: catalog(7) })
    const h = harness()
    await h.mcp.registry.updateSettings({ url: fake.url })

    const first = await h.mcp.registry.list({ limit: 3 })
    expect(first.source).toBe('live')
    expect(first.servers.map((s) => s.name)).toEqual([
      'io.github.acme/server-0',
      'io.github.acme/server-1',
      'io.github.acme/server-2'
    ])
    expect(first.servers[1]).toMatchObject({
      publisher: 'io.github.acme',
      version: '1.1.0',
      repositoryUrl: 'https://github.com/acme/server-1',
      repositorySource: 'github',
      official: { status: 'active', publishedAt: '2026-01-02T03:04:05Z', isLatest: true },
      packages: [
        {
          registryType: 'npm',
          identifier: '@acme/server-1',
          version: '1.1.0',
          command: 'npx -y @acme/server-1@1.1.0'
        }
      ]
    })
    const second = await h.mcp.registry.list({ limit: 3, cursor: first.nextCursor })
    const third = await h.mcp.registry.list({ limit: 3, cursor: second.nextCursor })
    expect([...second.servers, ...third.servers].map((s) => s.version)).toEqual([
      '1.3.0',
      '1.4.0',
      '1.5.0',
      '1.6.0'
    ])
    expect(third.nextCursor).toBeUndefined()
    // The current API version first, with the query the registry documents.
    expect(fake.requests[0]).toBe('/v0.1/servers?limit=3')
    expect(fake.requests[1]).toBe(`/v0.1/servers?limit=3&cursor=${first.nextCursor}`)
  })

  it("search is the registry's own: the words go to it and only its matches come back", async () => {
    const fake = await registry({ items: catalog(9) })
    const h = harness()
    await h.mcp.registry.updateSettings({ url: fake.url })
    const page = await h.mcp.registry.list({ search: 'weather' })
    expect(page.servers.map((s) => s.name)).toEqual([1, 3, 5, 7].map((n) => `io.github.acme/server-${n}`))
    expect(fake.requests.at(-1)).toBe('/v0.1/servers?limit=30&search=weather')
  })

  it('a registry with only /v0 and the flat shape of before 2025-09-29 lists the same servers', async () => {
    const fake = await registry({ items: catalog(4), shape: 'flat', apiVersions: ['v0'] })
    const h = harness()
    await h.mcp.registry.updateSettings({ url: `${fake.url}/` })
    const first = await h.mcp.registry.list({ limit: 2 })
    const second = await h.mcp.registry.list({ limit: 2, cursor: first.nextCursor })
    expect([...first.servers, ...second.servers].map((s) => s.name)).toHaveLength(4)
    expect(first.servers[0].official?.status).toBe('active')
    expect(fake.requests).toEqual([
      '/v0.1/servers?limit=2',
      '/v0/servers?limit=2',
      `/v0/servers?limit=2&cursor=${first.nextCursor}`
    ])
  })

  it('offline, the last pages fetched are shown with when they were fetched, and searched; with nothing cached it says so', async () => {
    const fake = await registry({ items: catalog(6) })
    const h = harness()
    await h.mcp.registry.updateSettings({ url: fake.url })
    const live = await h.mcp.registry.list({})
    await fake.close()

    const cached = await h.mcp.registry.list({})
    expect(cached.source).toBe('cache')
    expect(cached.fetchedAt).toBe(live.fetchedAt)
    expect(cached.servers.map((s) => s.name)).toEqual(live.servers.map((s) => s.name))
    expect(cached.offlineReason).toMatch(
      /could not be reached: Nothing is listening at 127\.0\.0\.1:\d+: is the registry running\?/
    )

    // A search never made online is answered from every cached server.
    const searched = await h.mcp.registry.list({ search: 'Weather' })
    expect(searched).toMatchObject({ source: 'cache', fetchedAt: live.fetchedAt })
    expect(searched.servers.map((s) => s.name)).toEqual([1, 3, 5].map((n) => `io.github.acme/server-${n}`))

    // Another registry, down too, of which nothing was ever fetched.
    const other = await registry({ items: [] })
    await other.close()
    await h.mcp.registry.updateSettings({ url: other.url })
    await expect(h.mcp.registry.list({})).rejects.toMatchObject({
      code: 'mcp_registry_unreachable',
      message: expect.stringMatching(/Nothing from it is cached yet/)
    })
  })

  it('the cache is in the app database: a restarted app shows the pages offline', async () => {
    const dataDir = tempDir()
    process.env.DEEPCHAT_TEST_REGISTRY_LOOPBACK = '1'
    cleanups.push(() => delete process.env.DEEPCHAT_TEST_REGISTRY_LOOPBACK)
    const fake = await registry({ items: catalog(2) })
    const first = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
    await createRouter(first).call(mcpRegistryUpdateSettings, { url: fake.url })
    const live = (await createRouter(first).call(mcpRegistryList, {})).page
    await first.dispose()
    await fake.close()

    const second = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
    cleanups.push(() => second.dispose())
    const page = (await createRouter(second).call(mcpRegistryList, {})).page
    expect(page).toMatchObject({ source: 'cache', fetchedAt: live.fetchedAt, registryUrl: fake.url })
    expect(page.servers).toHaveLength(2)
  })

  it('the registry is reached through the proxy of Settings › Network', async () => {
    const dataDir = tempDir()
    process.env.DEEPCHAT_TEST_REGISTRY_LOOPBACK = '1'
    cleanups.push(() => delete process.env.DEEPCHAT_TEST_REGISTRY_LOOPBACK)
    const proxy = await startHttpProxy()
    cleanups.push(() => proxy.close())
    const fake = await registry({ items: catalog(1) })
    const presenters = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
    cleanups.push(() => presenters.dispose())
    await presenters.network.update({
      mode: 'custom',
      protocol: 'http',
      host: '127.0.0.1',
      port: proxy.port,
      bypass: []
    })
    const router = createRouter(presenters)
    await router.call(mcpRegistryUpdateSettings, { url: fake.url })
    const page = (await router.call(mcpRegistryList, { search: 'server-0' })).page
    expect(page.servers.map((s) => s.name)).toEqual(['io.github.acme/server-0'])
    expect(proxy.targets).toContain(new URL(fake.url).host)
  })

  it('the registry address is the official one by default, may name another https registry, and refuses anything else', async () => {
    const h = createHarness({ shellEnv: async () => ({ PATH: '' }) })
    cleanups.push(() => h.close())
    expect(await h.mcp.registry.settings()).toMatchObject({
      url: OFFICIAL_MCP_REGISTRY_URL,
      isOfficial: true,
      runtimes: { npx: false, uvx: false, docker: false }
    })
    expect(
      await h.mcp.registry.updateSettings({ url: ' https://mcp.corp.example/registry/ ' })
    ).toMatchObject({
      url: 'https://mcp.corp.example/registry',
      isOfficial: false
    })
    for (const url of [
      'http://mcp.corp.example',
      'http://127.0.0.1:9', // plain http to this machine only with the test knob
      'javascript:alert(1)',
      'file:///etc/passwd',
      'https://user:pw@mcp.corp.example',
      'https://mcp.corp.example/?q=1',
      'not a url'
    ])
      await expect(h.mcp.registry.updateSettings({ url }), url).rejects.toMatchObject({
        code: 'invalid_setting'
      })
    expect((await h.mcp.registry.settings()).url).toBe('https://mcp.corp.example/registry')
    expect(await h.mcp.registry.updateSettings({ url: '' })).toMatchObject({ url: OFFICIAL_MCP_REGISTRY_URL })
  })

  it('the routes check their input and answer the settings', async () => {
    const dataDir = tempDir()
    const presenters = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
    cleanups.push(() => presenters.dispose())
    const router = createRouter(presenters)
    expect((await router.call(mcpRegistryGetSettings, {})).settings.url).toBe(OFFICIAL_MCP_REGISTRY_URL)
    await expect(router.call(mcpRegistryList, { limit: 5_000 })).rejects.toMatchObject({
      code: 'invalid_input'
    })
  })

  it('the cache keeps the newest pages within 20 pages and about 4 MB, whatever the registry sends', async () => {
    const h = harness()
    const cache = new RegistryCache(h.config)
    const bigServer = (n: number) => ({
      name: `io.github.acme/big-${n}`,
      publisher: 'io.github.acme',
      description: 'd'.repeat(1_000),
      version: '1.0.0',
      packages: [],
      remotes: [],
      refused: Array.from({ length: 60 }, () => ({ what: 'w'.repeat(300), reason: 'r'.repeat(500) }))
    })
    for (let page = 0; page < 30; page++)
      cache.put({
        registryUrl: 'https://r.example',
        search: `q${page}`,
        cursor: '',
        fetchedAt: page,
        servers: Array.from({ length: 8 }, (_, n) => bigServer(n)),
        refused: []
      })
    const stored = h.config.getDocument('mcp.registry.cache', z.unknown(), null)
    expect(JSON.stringify(stored).length).toBeLessThanOrEqual(4_100_000)
    expect(cache.get('https://r.example', 'q29', '')?.fetchedAt).toBe(29)
    expect(cache.get('https://r.example', 'q0', '')).toBeUndefined()
    // Twenty pages of ~400 KB would be 8 MB: the size budget, not the count, dropped the older ones.
    const kept = (stored as { pages: unknown[] }).pages.length
    expect(kept).toBeGreaterThan(5)
    expect(kept).toBeLessThan(20)
  })
})
