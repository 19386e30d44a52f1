import { afterEach, describe, expect, it } from 'vitest'
import { createServer, type Server as HttpServer } from 'node:http'
import { readFileSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { AddressInfo } from 'node:net'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import type { LLMCoreStreamEvent } from '@shared/types/llm'
import type { NetworkSettingsPatch } from '@shared/types/network'
import {
  networkGetSettings,
  networkTestProxy,
  networkUpdateSettings
} from '@shared/contracts/routes/network.routes'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createRouter } from '../../../src/main/routes'
import { closedPort, startHttpProxy, startSocks5Proxy, type TestProxy } from '../../fixtures/network/proxies'
import { startFakeLlm, type FakeLlm } from '../../fixtures/llm/fakeLlm'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()
const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const ENV_SERVER = resolve(import.meta.dirname, '../../fixtures/network/envServer.mjs')

function app(): { presenters: Presenters; router: ReturnType<typeof createRouter>; dataDir: string } {
  const dataDir = tempDir()
  const presenters = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
  cleanups.push(() => presenters.dispose())
  return { presenters, router: createRouter(presenters), dataDir }
}

async function proxy(start: () => Promise<TestProxy>): Promise<TestProxy> {
  const started = await start()
  cleanups.push(() => started.close())
  return started
}

async function fakeOpenAi(): Promise<FakeLlm> {
  const llm = await startFakeLlm({
    kind: 'openai',
    script: [{ steps: [{ type: 'text', text: ['Hello ', 'there'] }] }],
    models: ['fake-model']
  })
  cleanups.push(() => llm.close())
  return llm
}

/** A Streamable HTTP MCP server with one tool, `ping`. */
async function mcpHttpServer(): Promise<{ url: string; port: number }> {
  const http: HttpServer = createServer(async (req, res) => {
    const server = new Server({ name: 'ping', version: '1.0.0' }, { capabilities: { tools: {} } })
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: 'ping', inputSchema: { type: 'object' as const } }]
    }))
    server.setRequestHandler(CallToolRequestSchema, async () => ({
      content: [{ type: 'text', text: 'pong' }]
    }))
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true
    })
    res.on('close', () => void transport.close())
    await server.connect(transport)
    await transport.handleRequest(req, res)
  })
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done))
  cleanups.push(
    () =>
      new Promise((done) => {
        http.closeAllConnections()
        http.close(() => done())
      })
  )
  const port = (http.address() as AddressInfo).port
  return { url: `http://127.0.0.1:${port}/mcp`, port }
}

async function addOpenAi(presenters: Presenters, llm: FakeLlm): Promise<string> {
  const view = await presenters.llmProviders.addProvider({
    id: 'fake-openai',
    kind: 'openai',
    name: 'Fake OpenAI',
    baseUrl: llm.baseUrl,
    apiKey: 'sk-test-0123456789abcd',
    models: [{ id: 'fake-model', name: 'Fake model' }],
    maxRetries: 0
  })
  return view.id
}

async function stream(presenters: Presenters, providerId: string): Promise<LLMCoreStreamEvent[]> {
  const events: LLMCoreStreamEvent[] = []
  const request = { providerId, modelId: 'fake-model', messages: [{ role: 'user' as const, content: 'Hi' }] }
  for await (const event of presenters.llmProviders.coreStream(request, new AbortController().signal))
    events.push(event)
  return events
}

function textOf(events: LLMCoreStreamEvent[]): string {
  return events.map((e) => (e.type === 'text' ? e.content : '')).join('')
}

function errorMessageOf(events: LLMCoreStreamEvent[]): string {
  const error = events.find((e) => e.type === 'error')
  return error && error.type === 'error' ? error.error_message : ''
}

function custom(
  protocol: 'http' | 'socks5',
  port: number,
  extra: NetworkSettingsPatch = {}
): NetworkSettingsPatch {
  return { mode: 'custom', protocol, host: '127.0.0.1', port, bypass: [], ...extra }
}

describe('proxy: every outgoing request of main goes through the one dispatcher', () => {
  for (const kind of ['http', 'socks5'] as const) {
    it(`a ${kind} proxy with credentials carries the provider stream, the model list and an MCP HTTP server`, async () => {
      const auth = { username: 'alice', password: 's3cret pass' }
      const seen = await proxy(() => (kind === 'http' ? startHttpProxy(auth) : startSocks5Proxy(auth)))
      const { presenters, router } = app()
      await router.call(networkUpdateSettings, {
        patch: custom(kind, seen.port, { username: auth.username, password: auth.password })
      })
      const llm = await fakeOpenAi()
      const llmHost = new URL(llm.baseUrl).host
      const providerId = await addOpenAi(presenters, llm)

      const events = await stream(presenters, providerId)
      expect(textOf(events)).toBe('Hello there')
      expect(seen.targets).toContain(llmHost)

      const before = seen.targets.length
      expect((await presenters.llmProviders.listModels(providerId)).map((m) => m.id)).toContain('fake-model')
      expect(seen.targets.length).toBeGreaterThan(before)

      const mcp = await mcpHttpServer()
      await presenters.mcp.addServer({ id: 'ping', name: 'ping', type: 'http', url: mcp.url, enabled: false })
      expect((await presenters.mcp.startServer('ping')).status.state).toBe('running')
      expect(seen.targets).toContain(`127.0.0.1:${mcp.port}`)
      expect(seen.refusedLogins).toBe(0)
    })
  }

  it('the bypass list sends matching hosts directly: the proxy sees none of them', async () => {
    const seen = await proxy(() => startHttpProxy())
    const { presenters, router } = app()
    await router.call(networkUpdateSettings, {
      patch: custom('http', seen.port, { bypass: ['127.0.0.0/8'] })
    })
    const llm = await fakeOpenAi()
    const events = await stream(presenters, await addOpenAi(presenters, llm))
    expect(textOf(events)).toBe('Hello there')
    expect(llm.requests.length).toBeGreaterThan(0)
    expect(seen.targets).toEqual([])
  })

  it('"none" connects directly even when the app was started with HTTP_PROXY', async () => {
    const seen = await proxy(() => startHttpProxy())
    const { presenters, router } = app()
    const saved = process.env.HTTP_PROXY
    process.env.HTTP_PROXY = `http://127.0.0.1:${seen.port}`
    cleanups.push(async () => {
      if (saved === undefined) delete process.env.HTTP_PROXY
      else process.env.HTTP_PROXY = saved
    })
    await router.call(networkUpdateSettings, { patch: { mode: 'none' } })
    const llm = await fakeOpenAi()
    expect(textOf(await stream(presenters, await addOpenAi(presenters, llm)))).toBe('Hello there')
    expect(seen.targets).toEqual([])
  })

  it('"system" with proxy variables that are not proxy addresses: the app starts, connects directly, and no child gets them', async () => {
    const names = ['HTTP_PROXY', 'HTTPS_PROXY', 'https_proxy', 'ALL_PROXY']
    const saved = new Map(names.map((name) => [name, process.env[name]]))
    process.env.HTTP_PROXY = 'not a url'
    process.env.HTTPS_PROXY = 'secret-looking-value'
    process.env.https_proxy = 'file:///etc/passwd'
    process.env.ALL_PROXY = 'javascript:alert(1)'
    cleanups.push(async () => {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
    })
    const { presenters, router } = app()
    await router.call(networkUpdateSettings, { patch: { mode: 'system' } })
    const llm = await fakeOpenAi()
    expect(textOf(await stream(presenters, await addOpenAi(presenters, llm)))).toBe('Hello there')
    expect(await presenters.network.childProxyEnvironment()).toEqual({})
  })

  it('a proxy nothing listens on: the test and a chat say the proxy refused, not the server', async () => {
    const { presenters, router } = app()
    const port = await closedPort()
    const llm = await fakeOpenAi()
    const { result } = await router.call(networkTestProxy, { patch: custom('http', port), url: llm.baseUrl })
    expect(result).toMatchObject({ ok: false, code: 'proxy_refused' })
    if (!result.ok) expect(result.message).toContain(`127.0.0.1:${port}`)

    await router.call(networkUpdateSettings, { patch: custom('socks5', port) })
    const events = await stream(presenters, await addOpenAi(presenters, llm))
    expect(errorMessageOf(events)).toMatch(new RegExp(`proxy 127\\.0\\.0\\.1:${port}`))
    expect(llm.generationRequests()).toHaveLength(0)
  })

  it('wrong credentials: HTTP 407 and a SOCKS5 login refusal both say the credentials were refused', async () => {
    const auth = { username: 'alice', password: 'right' }
    const http = await proxy(() => startHttpProxy(auth))
    const socks = await proxy(() => startSocks5Proxy(auth))
    const llm = await fakeOpenAi()
    const { router } = app()
    for (const [protocol, server] of [
      ['http', http],
      ['socks5', socks]
    ] as const) {
      const { result } = await router.call(networkTestProxy, {
        patch: custom(protocol, server.port, { username: 'alice', password: 'wrong' }),
        url: llm.baseUrl
      })
      expect(result).toMatchObject({ ok: false, code: 'proxy_auth_failed' })
      expect(server.refusedLogins).toBe(1)
    }
    const { result } = await router.call(networkTestProxy, {
      patch: custom('socks5', socks.port, { username: 'alice', password: 'right' }),
      url: `${llm.baseUrl}/models`
    })
    expect(result).toMatchObject({ ok: true })
  })

  it('a proxy host that does not resolve is named as a DNS failure of the proxy', async () => {
    const { router } = app()
    const { result } = await router.call(networkTestProxy, {
      patch: { mode: 'custom', protocol: 'http', host: 'no-such-proxy.invalid', port: 8080, bypass: [] },
      url: `http://127.0.0.1:${await closedPort()}/`
    })
    expect(result).toMatchObject({ ok: false, code: 'proxy_not_found' })
  })

  it('the password is a secret: the page sees only that there is one, and the database never holds it', async () => {
    const { presenters, router, dataDir } = app()
    const password = 'PROXY-PASSWORD-7f3a'
    const pushed: string[] = []
    presenters.events.subscribe((name, payload) => pushed.push(`${name} ${JSON.stringify(payload)}`))
    const { settings } = await router.call(networkUpdateSettings, {
      patch: custom('http', 3128, { username: 'bob', password })
    })
    expect(settings).toMatchObject({ mode: 'custom', username: 'bob', hasPassword: true })
    expect(JSON.stringify(settings)).not.toContain(password)
    expect(JSON.stringify((await router.call(networkGetSettings, {})).settings)).not.toContain(password)
    const db = readdirSync(dataDir)
      .filter((f) => f.startsWith('deepchat.db'))
      .map((f) => readFileSync(join(dataDir, f)).toString('latin1'))
      .join('')
    expect(db).not.toContain(password)
    // The change is announced (the desktop app re-applies it to Chromium) without the password.
    expect(
      pushed.some((e) => e.startsWith('network.settings.changed') && e.includes('"hasPassword":true'))
    ).toBe(true)
    expect(pushed.join('\n')).not.toContain(password)
    const cleared = await router.call(networkUpdateSettings, { patch: { password: '' } })
    expect(cleared.settings.hasPassword).toBe(false)
  })

  it('bad settings are refused with a reason and the saved ones stay', async () => {
    const { router } = app()
    await router.call(networkUpdateSettings, { patch: custom('http', 3128) })
    await expect(router.call(networkUpdateSettings, { patch: { host: 'http://evil/' } })).rejects.toThrow(
      /host/
    )
    await expect(router.call(networkUpdateSettings, { patch: { port: 70_000 } })).rejects.toThrow(/port/)
    await expect(router.call(networkUpdateSettings, { patch: { bypass: ['a b'] } })).rejects.toThrow(/bypass/)
    await expect(router.call(networkUpdateSettings, { patch: { mode: 'custom', host: '' } })).rejects.toThrow(
      /needs a host/
    )
    expect((await router.call(networkGetSettings, {})).settings).toMatchObject({
      host: '127.0.0.1',
      port: 3128
    })
  })

  it('a stdio MCP server starts with the proxy variables, credentials and bypass list of Settings › Network', async () => {
    const { presenters, router } = app()
    await router.call(networkUpdateSettings, {
      patch: custom('http', 3128, { username: 'bob', password: 'pw', bypass: ['localhost', '.corp.example'] })
    })
    await presenters.mcp.addServer({
      id: 'env',
      name: 'env',
      type: 'stdio',
      command: process.execPath,
      args: [ENV_SERVER],
      env: {},
      enabled: false
    })
    expect((await presenters.mcp.startServer('env')).status.state).toBe('running')
    const result = await presenters.mcp.callTool('env', 'proxy_env', {})
    const text = (result.content as Array<{ type: string; text?: string }>).find(
      (c) => c.type === 'text'
    )?.text
    expect(JSON.parse(text ?? '{}')).toEqual({
      HTTP_PROXY: 'http://bob:pw@127.0.0.1:3128',
      HTTPS_PROXY: 'http://bob:pw@127.0.0.1:3128',
      http_proxy: 'http://bob:pw@127.0.0.1:3128',
      https_proxy: 'http://bob:pw@127.0.0.1:3128',
      NO_PROXY: 'localhost,.corp.example'
    })
  })
})
