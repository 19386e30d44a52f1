import { afterEach, describe, expect, it } from 'vitest'
import { webSearchGetSettings, webSearchUpdateSettings } from '@shared/contracts/routes/webSearch.routes'
import { networkUpdateSettings } from '@shared/contracts/routes/network.routes'
import type { SearchEngine, WebSource } from '@shared/types/webSearch'
import { createRouter } from '../../../src/main/routes'
import { createFeatureHarness, type FeatureHarness } from '../tools/featureHarness'
import { FAKE_KEY, startFakeSearch, type FakeHit, type FakeSearch } from '../../fixtures/web/fakeSearch'
import { startHttpProxy, type TestProxy } from '../../fixtures/network/proxies'

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const HITS: FakeHit[] = [
  {
    title: 'Kyoto travel <strong>guide</strong>',
    url: 'https://www.example.com/kyoto',
    snippet: 'Temples &amp; gardens.'
  },
  { title: 'Evil', url: 'javascript:alert(1)', snippet: 'never shown' },
  { title: 'Data', url: 'data:text/html,hi', snippet: 'never shown' },
  { title: 'Creds', url: 'https://user:pw@phish.example/', snippet: 'never shown' },
  { title: 'Kyoto weather', url: 'http://weather.example.org/kyoto?d=1', snippet: 'Sunny.' }
]

async function setup(engine: SearchEngine, key: string | null = FAKE_KEY) {
  const h: FeatureHarness = createFeatureHarness()
  cleanups.push(() => h.close())
  const fake: FakeSearch = await startFakeSearch(engine, HITS)
  cleanups.push(() => fake.close())
  const router = createRouter(h.presenters)
  await router.call(webSearchUpdateSettings, {
    patch: {
      engine,
      maxResults: 4,
      endpoints: { [engine]: fake.baseUrl },
      ...(key ? { keys: { [engine]: key } } : {})
    }
  })
  return { h, fake, router }
}

/** What every engine's wire test checks about the request, by engine. */
const WIRE: Record<SearchEngine, (fake: FakeSearch) => void> = {
  tavily: (fake) => {
    expect(fake.requests[0]).toMatchObject({ method: 'POST', path: '/search' })
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${FAKE_KEY}`)
    expect(fake.requests[0].body).toMatchObject({ query: 'kyoto trip', max_results: 4 })
  },
  brave: (fake) => {
    expect(fake.requests[0]).toMatchObject({
      method: 'GET',
      path: '/res/v1/web/search',
      query: { q: 'kyoto trip', count: '4' }
    })
    expect(fake.requests[0].headers['x-subscription-token']).toBe(FAKE_KEY)
  },
  serpapi: (fake) => {
    expect(fake.requests[0]).toMatchObject({
      method: 'GET',
      path: '/search.json',
      query: { engine: 'google', q: 'kyoto trip', num: '4', api_key: FAKE_KEY }
    })
  },
  exa: (fake) => {
    expect(fake.requests[0]).toMatchObject({ method: 'POST', path: '/search' })
    expect(fake.requests[0].headers['x-api-key']).toBe(FAKE_KEY)
    expect(fake.requests[0].body).toMatchObject({ query: 'kyoto trip', numResults: 4 })
  },
  jina: (fake) => {
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/', query: { q: 'kyoto trip' } })
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${FAKE_KEY}`)
    expect(fake.requests[0].headers.accept).toBe('application/json')
  },
  searxng: (fake) => {
    expect(fake.requests[0]).toMatchObject({
      method: 'GET',
      path: '/search',
      query: { q: 'kyoto trip', format: 'json' }
    })
  }
}

describe('web_search speaks each engine’s API', () => {
  for (const engine of ['tavily', 'brave', 'serpapi', 'exa', 'jina', 'searxng'] as const) {
    it(`${engine}: sends the engine’s request and returns numbered http(s) sources to cite`, async () => {
      const { h, fake } = await setup(engine, engine === 'searxng' ? null : FAKE_KEY)
      const result = await h.call('web_search', { query: 'kyoto trip' })
      expect(result.rawData.isError).toBe(false)
      WIRE[engine](fake)
      const data = result.rawData.toolResult.data as { kind: string; sources: WebSource[] }
      expect(data.kind).toBe('web_sources')
      // javascript:, data: and credentialed links are dropped; the rest are numbered in order.
      expect(data.sources).toEqual([
        {
          index: 1,
          title: 'Kyoto travel guide',
          url: 'https://www.example.com/kyoto',
          site: 'example.com',
          snippet: 'Temples & gardens.'
        },
        {
          index: 2,
          title: 'Kyoto weather',
          url: 'http://weather.example.org/kyoto?d=1',
          site: 'weather.example.org',
          snippet: 'Sunny.'
        }
      ])
      const text = h.text(result)
      expect(text).toContain('[1] Kyoto travel guide — example.com')
      expect(text).toContain('[2] Kyoto weather')
      expect(text).toMatch(/untrusted web content/)
      expect(text).not.toContain('javascript:')
    })
  }

  for (const engine of ['tavily', 'brave', 'serpapi', 'exa', 'jina'] as const) {
    it(`${engine}: a wrong key is a clear error naming the engine and the setting`, async () => {
      const { h } = await setup(engine, 'wrong-key')
      const result = await h.call('web_search', { query: 'kyoto' })
      expect(result.rawData.isError).toBe(true)
      expect(h.text(result)).toMatch(/refused the API key \(HTTP 401\).*Settings › Web search/)
    })
  }

  it('is offered only once the engine is set up: its key stored (SearXNG: its address)', async () => {
    const { h, fake, router } = await setup('brave', null)
    expect(await h.toolNames()).not.toContain('web_search')
    expect(await h.toolNames()).toContain('web_fetch')
    const refused = await h.call('web_search', { query: 'kyoto' })
    expect(refused.rawData.isError).toBe(true)
    expect(fake.requests).toHaveLength(0)
    await router.call(webSearchUpdateSettings, { patch: { keys: { brave: FAKE_KEY } } })
    expect(await h.toolNames()).toContain('web_search')
    await router.call(webSearchUpdateSettings, { patch: { engine: 'searxng' } })
    expect(await h.toolNames()).not.toContain('web_search')
  })

  it('the search goes through the proxy of Settings › Network', async () => {
    const { h, fake, router } = await setup('tavily')
    const proxy: TestProxy = await startHttpProxy()
    cleanups.push(() => proxy.close())
    await router.call(networkUpdateSettings, {
      patch: { mode: 'custom', protocol: 'http', host: '127.0.0.1', port: proxy.port, bypass: [] }
    })
    const result = await h.call('web_search', { query: 'kyoto trip' })
    expect(result.rawData.isError).toBe(false)
    expect(proxy.targets).toContain(new URL(fake.baseUrl).host)
  })

  it('keys are secrets: the page learns only which engines have one', async () => {
    const { router } = await setup('exa')
    const { settings } = await router.call(webSearchGetSettings, {})
    expect(settings.keys).toMatchObject({ exa: true, tavily: false })
    expect(JSON.stringify(settings)).not.toContain(FAKE_KEY)
    const removed = await router.call(webSearchUpdateSettings, { patch: { keys: { exa: '' } } })
    expect(removed.settings.keys.exa).toBe(false)
  })

  it('refuses an endpoint that is not http(s) and keeps the settings', async () => {
    const { router, fake } = await setup('searxng', null)
    await expect(
      router.call(webSearchUpdateSettings, { patch: { endpoints: { searxng: 'file:///etc/passwd' } } })
    ).rejects.toThrow()
    expect((await router.call(webSearchGetSettings, {})).settings.endpoints.searxng).toBe(fake.baseUrl)
  })
})
