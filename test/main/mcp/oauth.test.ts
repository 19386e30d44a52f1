import { spawn, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './harness'
import { until } from '../../helpers/until'

const OAUTH_SERVER = resolve(import.meta.dirname, '../../fixtures/mcp/oauthServer.mjs')

let h: Harness | undefined
let server: ChildProcess | undefined
let serverLog = ''
afterEach(async () => {
  await h?.close()
  h = undefined
  server?.kill('SIGKILL')
  server = undefined
})

async function startOAuthServer(env: Record<string, string> = {}): Promise<number> {
  serverLog = ''
  server = spawn(process.execPath, [OAUTH_SERVER], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  server.stderr!.on('data', (chunk: Buffer) => (serverLog += chunk.toString()))
  return new Promise((resolvePort, reject) => {
    let out = ''
    server!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /listening (\d+)/.exec(out)
      if (match) resolvePort(Number(match[1]))
    })
    server!.once('exit', (code) => reject(new Error(`oauth server exited ${code}: ${serverLog}`)))
  })
}

/** The "browser": follows the authorization URL, which approves and redirects to our loopback. */
function browser(opened: string[]) {
  return async (url: string) => {
    opened.push(url)
    const response = await fetch(url, { redirect: 'follow' })
    await response.text()
  }
}

describe('OAuth for http servers', () => {
  it('discovers, registers, runs PKCE through the loopback redirect and stores tokens as secrets', async () => {
    const port = await startOAuthServer()
    const opened: string[] = []
    h = createHarness({ oauth: { openUrl: browser(opened), authorizationTimeoutMs: 10_000 } })
    await h.mcp.addServer({
      id: 'secure',
      name: 'secure',
      type: 'http',
      url: `http://127.0.0.1:${port}/mcp`,
      enabled: false
    })
    const view = await h.mcp.startServer('secure')
    expect(view.status).toMatchObject({ state: 'running' })

    expect(opened).toHaveLength(1)
    const authorizeUrl = new URL(opened[0])
    expect(authorizeUrl.pathname).toBe('/authorize')
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorizeUrl.searchParams.get('redirect_uri')).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/
    )

    const result = await h.mcp.callTool('secure', 'whoami', {})
    expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^client [\w-]+$/) })
    const stored = JSON.parse((await h.config.getSecret('mcp.secure.oauth')) ?? '{}')
    expect(stored.tokens.access_token).toEqual(expect.any(String))
    expect(stored.client.client_id).toEqual(expect.any(String))

    // A restart reuses the stored tokens: no second trip to the browser.
    await h.mcp.restartServer('secure')
    expect(h.mcp.getServer('secure').status.state).toBe('running')
    expect(opened).toHaveLength(1)

    // Removing the server forgets its tokens.
    await h.mcp.removeServer('secure')
    expect(await h.config.getSecret('mcp.secure.oauth')).toBeUndefined()
  })

  it('refreshes an expired access token without asking the user again', async () => {
    const port = await startOAuthServer({ ACCESS_TOKEN_TTL_S: '1' })
    const opened: string[] = []
    h = createHarness({ oauth: { openUrl: browser(opened), authorizationTimeoutMs: 10_000 } })
    await h.mcp.addServer({
      id: 'secure',
      name: 'secure',
      type: 'http',
      url: `http://127.0.0.1:${port}/mcp`,
      enabled: false
    })
    await h.mcp.startServer('secure')
    // The access token lives a second: wait until the server turns the stored one away.
    const stored = JSON.parse((await h.config.getSecret('mcp.secure.oauth'))!) as {
      tokens: { access_token: string }
    }
    const rejected = async () =>
      (
        await fetch(`http://127.0.0.1:${port}/mcp`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${stored.tokens.access_token}`,
            'content-type': 'application/json'
          },
          body: '{}'
        })
      ).status === 401
    await until(rejected, { what: 'the server rejects the stored token' })
    const result = await h.mcp.callTool('secure', 'whoami', {})
    expect(result.isError).toBe(false)
    expect(serverLog).toContain('token refreshed')
    expect(opened).toHaveLength(1)
  })

  it('reports a sign-in that never completes', async () => {
    const port = await startOAuthServer()
    h = createHarness({ oauth: { openUrl: async () => {}, authorizationTimeoutMs: 500 } })
    await h.mcp.addServer({
      id: 'secure',
      name: 'secure',
      type: 'http',
      url: `http://127.0.0.1:${port}/mcp`,
      enabled: false
    })
    const view = await h.mcp.startServer('secure')
    expect(view.status).toMatchObject({ state: 'error', lastError: 'Sign-in was not completed in time' })
  })
})

describe('http servers with a static token', () => {
  it('a rejected Authorization header is reported clearly instead of starting a sign-in', async () => {
    const port = await startOAuthServer()
    const opened: string[] = []
    h = createHarness({ oauth: { openUrl: browser(opened) } })
    await h.mcp.addServer({
      id: 'static',
      name: 'static',
      type: 'http',
      url: `http://127.0.0.1:${port}/mcp`,
      headers: { Authorization: 'Bearer wrong-token' },
      enabled: false
    })
    const view = await h.mcp.startServer('static')
    expect(view.status).toMatchObject({ state: 'error', lastError: expect.stringContaining('HTTP 401') })
    expect(opened).toEqual([])
  })
})

describe('a hostile authorization page', () => {
  // The OS opener would launch a .desktop file, mount a share or start a program's handler.
  for (const endpoint of [
    'file:///home/me/.local/share/applications/x.desktop',
    'smb://attacker.example/share/run.exe',
    'x-deepchat-evil://run?cmd=id'
  ]) {
    it(`never reaches the opener and names the refused address: ${endpoint.split(':')[0]}:`, async () => {
      const port = await startOAuthServer({ AUTHORIZATION_ENDPOINT: endpoint })
      const opened: string[] = []
      h = createHarness({ oauth: { openUrl: browser(opened), authorizationTimeoutMs: 10_000 } })
      await h.mcp.addServer({
        id: 'hostile',
        name: 'hostile',
        type: 'http',
        url: `http://127.0.0.1:${port}/mcp`,
        enabled: false
      })
      const view = await h.mcp.startServer('hostile')
      expect(opened).toEqual([])
      expect(view.status.state).toBe('error')
      const lastError = (view.status as { lastError?: string }).lastError ?? ''
      expect(lastError).toContain('sign-in page was not opened')
      expect(lastError).toContain(endpoint.split('?')[0].slice(0, 30))
      expect(lastError).toMatch(/only http and https/)
    })
  }
})
