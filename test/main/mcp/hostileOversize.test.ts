import { createServer, type Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './harness'
import { hostileServerInput } from './hostileServer'

let h: Harness | undefined
let http: HttpServer | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
  http?.closeAllConnections()
  await new Promise((resolve) => http?.close(resolve) ?? resolve(undefined))
  http = undefined
})

/**
 * The same tools over Streamable HTTP with JSON answers (stateless: a new SDK server per
 * request), in this process.
 */
async function startHttpServer(): Promise<string> {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  http = createServer(async (req, res) => {
    const server = new Server({ name: 'big-http', version: '1.0.0' }, { capabilities: { tools: {} } })
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: ['huge', 'slow', 'release'].map((name) => ({ name, inputSchema: { type: 'object' as const } }))
    }))
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const name = request.params.name
      if (name === 'huge') return { content: [{ type: 'text', text: 'y'.repeat(30 * 1024 * 1024) }] }
      if (name === 'release') release()
      else await released
      return { content: [{ type: 'text', text: name === 'release' ? 'released' : 'survived' }] }
    })
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true
    })
    res.on('close', () => void transport.close())
    await server.connect(transport)
    await transport.handleRequest(req, res)
  })
  await new Promise<void>((resolve) => http!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`
}

// `huge {mb}` answers with `mb` megabytes of text; `noisy` first sends a 20 MB progress
// notification (no id to answer), then a normal result; `slow` answers after `release` is called.
const BIG_SERVER = {
  capabilities: { tools: {} },
  body: `
let release
const released = new Promise((r) => (release = r))
server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: [
  { name: 'huge', inputSchema: { type: 'object', properties: { mb: { type: 'number' } } } },
  { name: 'noisy', inputSchema: { type: 'object' } },
  { name: 'slow', inputSchema: { type: 'object' } },
  { name: 'release', inputSchema: { type: 'object' } }
] }))
server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
  const name = request.params.name
  if (name === 'huge') return { content: [{ type: 'text', text: 'y'.repeat(request.params.arguments.mb * 1024 * 1024) }] }
  if (name === 'noisy') {
    await extra.sendNotification({ method: 'notifications/progress', params: {
      progressToken: request.params._meta?.progressToken ?? 'none', progress: 1, message: 'z'.repeat(20 * 1024 * 1024) } })
    return { content: [{ type: 'text', text: 'still here' }] }
  }
  if (name === 'release') { release(); return { content: [{ type: 'text', text: 'released' }] } }
  await released
  return { content: [{ type: 'text', text: 'survived' }] }
})
`
}

const text = (result: { content: { type: string; text?: string }[] }) =>
  result.content.map((c) => c.text ?? '').join('')

describe('a server sending a message larger than 10 MB', () => {
  it('fails only the call it answers, says so, and keeps the connection and the other pending call', async () => {
    h = createHarness()
    await h.mcp.addServer({ ...hostileServerInput(h.dir, 'big', BIG_SERVER), timeoutMs: 60_000 })
    await h.mcp.startServer('big')

    const pending = h.mcp.callTool('big', 'slow', {})
    pending.catch(() => {}) // awaited below; a failed test must not leave it unhandled
    await expect(h.mcp.callTool('big', 'huge', { mb: 50 })).rejects.toMatchObject({
      message: expect.stringContaining('The server sent a message larger than 10 MB (50 MB); it was dropped')
    })
    expect(h.mcp.getServer('big').status.state).toBe('running')
    expect(text(await h.mcp.callTool('big', 'release', {}))).toBe('released')
    expect(text(await pending)).toBe('survived')

    // A notification too big to read is dropped; its call still gets its answer.
    expect(text(await h.mcp.callTool('big', 'noisy', {}))).toBe('still here')
    // A result just under the limit still arrives whole.
    expect(text(await h.mcp.callTool('big', 'huge', { mb: 9 }))).toHaveLength(9 * 1024 * 1024)

    const status = h.mcp.getServer('big').status
    expect(status.state).toBe('running')
    expect(status.stderrTail.filter((l) => l.includes('larger than 10 MB'))).toEqual([
      '[DeepChat] The server sent a message larger than 10 MB (50 MB); it was dropped',
      '[DeepChat] The server sent a message larger than 10 MB (20 MB); it was dropped'
    ])
    // Tens of megabytes through a real pipe: slow on a busy 2-core machine.
  }, 120_000)

  it('over Streamable HTTP fails only the call it answers, and the other pending call survives', async () => {
    h = createHarness()
    const url = await startHttpServer()
    await h.mcp.addServer({ id: 'bighttp', name: 'bighttp', type: 'http', url, enabled: false })
    expect((await h.mcp.startServer('bighttp')).status.state).toBe('running')
    const pending = h.mcp.callTool('bighttp', 'slow', {})
    pending.catch(() => {}) // awaited below; a failed test must not leave it unhandled
    await expect(h.mcp.callTool('bighttp', 'huge', {})).rejects.toMatchObject({
      message: expect.stringContaining('The server sent a message larger than 10 MB; it was dropped')
    })
    expect(text(await h.mcp.callTool('bighttp', 'release', {}))).toBe('released')
    expect(text(await pending)).toBe('survived')
    expect(h.mcp.getServer('bighttp').status.state).toBe('running')
  })
})
