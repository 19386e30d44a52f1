import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, EVERYTHING_SERVER, type Harness } from './harness'
import { until } from '../../helpers/until'

let h: Harness | undefined
let httpServer: ChildProcess | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
  httpServer?.kill('SIGKILL')
  httpServer = undefined
})

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** Spawns server-everything in an HTTP mode and waits for its "listening" line on stderr. */
async function spawnEverything(mode: 'streamableHttp' | 'sse'): Promise<number> {
  const port = await freePort()
  httpServer = spawn(process.execPath, [EVERYTHING_SERVER, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe']
  })
  await new Promise<void>((resolve, reject) => {
    let seen = ''
    const timer = setTimeout(
      () => reject(new Error(`server-everything ${mode} did not start: ${seen}`)),
      15_000
    )
    httpServer!.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString()
      if (/listening on port|running on port/i.test(seen)) {
        clearTimeout(timer)
        resolve()
      }
    })
    httpServer!.once('exit', (code) => reject(new Error(`server-everything exited with ${code}: ${seen}`)))
  })
  return port
}

async function exercise(harness: Harness, serverId: string) {
  const { mcp } = harness
  const names = (await mcp.listTools()).filter((t) => t.serverId === serverId).map((t) => t.name)
  expect(names).toEqual(
    expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image', 'trigger-long-running-operation'])
  )
  expect(await mcp.callTool(serverId, 'echo', { message: 'hi' })).toEqual({
    content: [{ type: 'text', text: 'Echo: hi' }],
    isError: false
  })
  const sum = await mcp.callTool(serverId, 'get-sum', { a: 2, b: 3 })
  expect(sum.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('5') })
  const image = await mcp.callTool(serverId, 'get-tiny-image', {})
  expect(image.content.find((c) => c.type === 'image')).toMatchObject({
    type: 'image',
    mimeType: 'image/png',
    data: expect.stringMatching(/^iVBOR/)
  })
  const progress: number[] = []
  await mcp.callTool(
    serverId,
    'trigger-long-running-operation',
    { duration: 1, steps: 3 },
    { onProgress: (p) => progress.push(p.progress) }
  )
  // server-everything does not await its last notification before answering, so over stdio the
  // final step can lose the race against the result; the earlier ones must all arrive in order.
  expect(progress.slice(0, 2)).toEqual([1, 2])
  expect(progress.every((p, i) => i === 0 || p > progress[i - 1])).toBe(true)
  expect(mcp.listPrompts(serverId).length).toBeGreaterThan(0)
  expect(
    mcp.listResources(serverId).resources.length + mcp.listResources(serverId).templates.length
  ).toBeGreaterThan(0)
}

describe('@modelcontextprotocol/server-everything', () => {
  it('works over stdio, including roots', async () => {
    h = createHarness()
    await h.mcp.addServer({
      id: 'everything',
      name: 'everything',
      type: 'stdio',
      command: process.execPath,
      args: [EVERYTHING_SERVER, 'stdio'],
      enabled: false
    })
    const view = await h.mcp.startServer('everything')
    expect(view.status).toMatchObject({ state: 'running', serverInfo: { name: 'mcp-servers/everything' } })
    await exercise(h, 'everything')
    // A new workspace is announced with roots/list_changed; the server re-reads the list.
    h.mcp.setRoots([{ uri: 'file:///tmp/workspace', name: 'workspace' }])
    // The server asks for the list when it hears of the change; poll what it reports until then.
    const roots = async () =>
      JSON.stringify((await h!.mcp.callTool('everything', 'get-roots-list', {})).content)
    await until(async () => (await roots()).includes('file:///tmp/workspace'), {
      what: 'the server reports the new root',
      timeoutMs: 5_000
    })
    expect(await roots()).toContain('file:///tmp/workspace')
  })

  it('works over Streamable HTTP', async () => {
    const port = await spawnEverything('streamableHttp')
    h = createHarness()
    await h.mcp.addServer({
      id: 'remote',
      name: 'remote',
      type: 'http',
      url: `http://127.0.0.1:${port}/mcp`,
      enabled: false
    })
    expect((await h.mcp.startServer('remote')).status.state).toBe('running')
    await exercise(h, 'remote')
  })

  it('falls back to SSE when an http server only speaks the old SSE transport', async () => {
    const port = await spawnEverything('sse')
    h = createHarness()
    await h.mcp.addServer({
      id: 'old',
      name: 'old',
      type: 'http',
      url: `http://127.0.0.1:${port}/sse`,
      enabled: false
    })
    expect((await h.mcp.startServer('old')).status.state).toBe('running')
    expect(await h.mcp.callTool('old', 'echo', { message: 'sse' })).toEqual({
      content: [{ type: 'text', text: 'Echo: sse' }],
      isError: false
    })
  })

  it('notices a remote server that went away and reports it', async () => {
    const port = await spawnEverything('streamableHttp')
    h = createHarness()
    await h.mcp.addServer({
      id: 'remote',
      name: 'remote',
      type: 'http',
      url: `http://127.0.0.1:${port}/mcp`,
      enabled: false
    })
    await h.mcp.startServer('remote')
    httpServer!.kill('SIGKILL')
    const failure = await h.mcp.callTool('remote', 'echo', { message: 'x' }).catch((e) => e)
    expect(failure.code).toMatch(/^mcp_/)
    const status = await h.waitForStatus(
      'remote',
      (s) => s.state === 'error' && /Gave up/.test(s.lastError ?? ''),
      20_000
    )
    expect(status.lastError).toMatch(/Gave up after 3 reconnect attempts/)
  })
})
