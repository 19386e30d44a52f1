import { afterEach, describe, expect, it } from 'vitest'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import WebSocket from 'ws'
import { configSettingsChanged } from '@shared/contracts/events/config.events'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createRouter } from '../../../src/main/routes'
import { MAX_MESSAGE_BYTES, startHost, type RunningHost } from '../../../src/main/host/server'
import { parseHostArgs } from '../../../src/main/host/args'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()
let host: RunningHost | undefined
let presenters: Presenters | undefined

afterEach(async () => {
  await host?.close()
  await presenters?.dispose()
  host = undefined
  presenters = undefined
})

async function boot(): Promise<RunningHost> {
  const dataDir = tempDir()
  const rendererDir = join(dataDir, 'renderer')
  mkdirSync(rendererDir)
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>ui</title>')
  presenters = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
  host = await startHost({ router: createRouter(presenters), events: presenters.events, rendererDir })
  return host
}

/** Resolves with the HTTP status of a refused upgrade, or 101 when the socket opened. */
function connectStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers })
    ws.on('open', () => {
      ws.close()
      resolve(101)
    })
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
    ws.on('error', reject)
  })
}

function openClient(url: string, origin?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, origin ? { origin } : {})
    ws.on('open', () => resolve(ws))
    ws.on('error', reject)
  })
}

function invoke(ws: WebSocket, id: number, route: string, input: unknown): Promise<unknown> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString())
      if (message.type === 'result' && message.id === id) {
        ws.off('message', onMessage)
        resolve(message.result)
      }
    }
    ws.on('message', onMessage)
    ws.send(JSON.stringify({ type: 'invoke', id, route, input }))
  })
}

const bridgeUrl = (h: RunningHost, token?: string) =>
  `ws://127.0.0.1:${h.port}/bridge${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`

describe('headless host', () => {
  it('listens on loopback only and prints a URL carrying the token', async () => {
    const h = await boot()
    expect(h.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(h.url).toBe(`${h.origin}/#token=${h.token}`)
    expect(h.token.length).toBeGreaterThanOrEqual(32)
  })

  it('refuses a WebSocket without a token', async () => {
    const h = await boot()
    expect(await connectStatus(bridgeUrl(h))).toBe(401)
  })

  it('refuses a WebSocket with a wrong token', async () => {
    const h = await boot()
    expect(await connectStatus(bridgeUrl(h, 'not-the-token'))).toBe(401)
    expect(await connectStatus(bridgeUrl(h, h.token.slice(0, -1)))).toBe(401)
  })

  it('refuses a WebSocket from a foreign Origin even with the right token', async () => {
    const h = await boot()
    expect(await connectStatus(bridgeUrl(h, h.token), { Origin: 'http://evil.example' })).toBe(403)
    expect(await connectStatus(bridgeUrl(h, h.token), { Origin: 'http://127.0.0.1:1' })).toBe(403)
    expect(await connectStatus(bridgeUrl(h, h.token), { Origin: h.origin })).toBe(101)
  })

  it('serves routes over the socket with the same envelope as IPC', async () => {
    const h = await boot()
    const ws = await openClient(bridgeUrl(h, h.token), h.origin)
    expect(await invoke(ws, 1, 'app.getInfo', {})).toMatchObject({ ok: true, data: { platform: 'node' } })
    expect(await invoke(ws, 2, 'config.updateSettings', { patch: { theme: 'nope' } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' }
    })
    expect(await invoke(ws, 3, 'no.such', {})).toMatchObject({ ok: false, error: { code: 'unknown_route' } })
    ws.close()
  })

  it('pushes events to connected clients', async () => {
    const h = await boot()
    const ws = await openClient(bridgeUrl(h, h.token))
    const event = new Promise((resolve) =>
      ws.on('message', (data) => {
        const message = JSON.parse(data.toString())
        if (message.type === 'event') resolve(message)
      })
    )
    await invoke(ws, 1, 'config.updateSettings', { patch: { language: 'zh-CN' } })
    expect(await event).toMatchObject({
      type: 'event',
      name: configSettingsChanged.name,
      payload: { changedKeys: ['language'] }
    })
    ws.close()
  })

  it('closes a connection that sends a message over the size cap', async () => {
    const h = await boot()
    const ws = await openClient(bridgeUrl(h, h.token))
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)))
    ws.send(
      JSON.stringify({
        type: 'invoke',
        id: 1,
        route: 'app.getInfo',
        input: { pad: 'x'.repeat(MAX_MESSAGE_BYTES) }
      })
    )
    expect(await closed).toBe(1009)
  })

  it('closes a connection that sends malformed messages, and stays up for others', async () => {
    const h = await boot()
    const bad = await openClient(bridgeUrl(h, h.token))
    const closed = new Promise<number>((resolve) => bad.on('close', (code) => resolve(code)))
    bad.send('{not json')
    expect(await closed).toBe(1007)
    const good = await openClient(bridgeUrl(h, h.token))
    expect(await invoke(good, 1, 'app.getInfo', {})).toMatchObject({ ok: true })
    good.close()
  })

  it('serves the UI with a Content-Security-Policy and never files outside the UI folder', async () => {
    const h = await boot()
    const page = await fetch(`${h.origin}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    const escape = await fetch(`${h.origin}/..%2f..%2fsecrets.json`)
    expect(escape.status).toBe(403)
  })

  it('answers malformed URLs with 400 and stays up', async () => {
    const h = await boot()
    for (const path of ['/%', '/%E0%A4%A', '/a%00b', '/%00']) {
      const response = await fetch(`${h.origin}${path}`)
      expect(response.status, path).toBe(400)
    }
    expect((await fetch(`${h.origin}/`)).status).toBe(200)
  })
})

describe('host arguments', () => {
  it('reads --port and --data-dir in both spellings', () => {
    expect(parseHostArgs(['--port', '4100', '--data-dir', '/tmp/x'], {})).toEqual({
      port: 4100,
      dataDir: '/tmp/x'
    })
    expect(parseHostArgs(['--port=0', '--data-dir=/tmp/y'], {})).toEqual({ port: 0, dataDir: '/tmp/y' })
    // No port given: the host reuses last time's (so open tabs reconnect).
    expect(parseHostArgs(['--data-dir', '/tmp/z'], {})).toEqual({ dataDir: '/tmp/z' })
  })

  it('rejects unknown flags and bad ports with a clear message', () => {
    expect(() => parseHostArgs(['--prot', '1'], {})).toThrow('unknown flag: --prot')
    expect(() => parseHostArgs(['--port', 'abc'], {})).toThrow('--port must be 0-65535')
    expect(() => parseHostArgs(['--port'], {})).toThrow('--port needs a value')
  })
})
