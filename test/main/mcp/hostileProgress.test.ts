import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './harness'
import { hostileServerInput, UNSAFE_CHARS } from './hostileServer'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

// `flood {count, bytes, everyMs}` sends `count` progress notifications whose message is `bytes`
// long (with terminal escapes and a bidi override in it), then answers.
const PROGRESS_SERVER = {
  capabilities: { tools: {} },
  body: `
server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: [
  { name: 'flood', inputSchema: { type: 'object' } }
] }))
server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
  const { count, bytes, everyMs } = request.params.arguments
  const token = request.params._meta?.progressToken
  const filler = 'x'.repeat(bytes)
  for (let i = 1; i <= count; i++) {
    await extra.sendNotification({ method: 'notifications/progress', params: {
      progressToken: token, progress: i, total: count, message: '\\u001b[31mstep ' + i + '\\u202e\\u0000 ' + filler } })
    if (everyMs) await new Promise((r) => setTimeout(r, everyMs))
  }
  return { content: [{ type: 'text', text: 'done' }] }
})
`
}

type Seen = { progress: number; total?: number; message?: string }

async function started(): Promise<Harness> {
  const harness = createHarness()
  await harness.mcp.addServer(hostileServerInput(harness.dir, 'p', PROGRESS_SERVER))
  await harness.mcp.startServer('p')
  return harness
}

describe('a server flooding a call with progress', () => {
  it('60 notifications of 1 MB reach the UI as a few lines of at most 200 characters, the last one included', async () => {
    h = await started()
    const seen: Seen[] = []
    const began = Date.now()
    const result = await h.mcp.callTool(
      'p',
      'flood',
      { count: 60, bytes: 1_000_000, everyMs: 0 },
      { onProgress: (p) => seen.push(p) }
    )
    expect(result.content).toEqual([{ type: 'text', text: 'done' }])
    // A burst of 5, then at most one per 250 ms (60 MB take a while to read), the last at the end.
    const seconds = (Date.now() - began) / 1000
    expect(seen.length).toBeGreaterThanOrEqual(6)
    expect(seen.length).toBeLessThanOrEqual(5 + Math.ceil(seconds * 4) + 1)
    expect(seen.slice(0, 5).map((p) => p.progress)).toEqual([1, 2, 3, 4, 5])
    expect(seen.at(-1)).toMatchObject({ progress: 60, total: 60 })
    for (const p of seen) {
      expect(p.message!.length).toBeLessThanOrEqual(200)
      expect(p.message).toMatch(/^\[?(?:31m)?step \d+ x+…$/)
      expect(p.message).not.toMatch(UNSAFE_CHARS)
    }
    const delivered = seen.reduce((sum, p) => sum + (p.message?.length ?? 0), 0)
    // What the UI got: a few kilobytes, not 60 MB.
    expect(delivered).toBeLessThanOrEqual(seen.length * 200)
    // Tens of megabytes through a real pipe: slow on a busy 2-core machine.
  }, 120_000)

  it('a steady stream is passed on at most four times a second, latest first', async () => {
    h = await started()
    const seen: Seen[] = []
    const began = Date.now()
    await h.mcp.callTool(
      'p',
      'flood',
      { count: 100, bytes: 10, everyMs: 10 },
      { onProgress: (p) => seen.push(p) }
    )
    const seconds = (Date.now() - began) / 1000
    // Burst of 5, then one per 250 ms, then the last one at the end.
    expect(seen.length).toBeLessThanOrEqual(5 + Math.ceil(seconds * 4) + 1)
    expect(seen.length).toBeLessThan(100)
    expect(seen.at(-1)?.progress).toBe(100)
    const order = seen.map((p) => p.progress)
    expect(order).toEqual([...order].sort((a, b) => a - b))
  })
})
