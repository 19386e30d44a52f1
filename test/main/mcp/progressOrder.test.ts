import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

// A stdio server whose `burst` tool writes its progress notifications and its result in one
// write, so they reach the client in the same read: what a fast tool on a busy machine does.
const BURST_SERVER = `
import { createInterface } from 'node:readline'
const line = (message) => JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n'
createInterface({ input: process.stdin }).on('line', (text) => {
  const message = JSON.parse(text)
  if (message.id === undefined) return
  if (message.method === 'initialize') {
    process.stdout.write(line({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'burst', version: '1' } } }))
  } else if (message.method === 'tools/list') {
    process.stdout.write(line({ id: message.id, result: { tools: [{ name: 'burst', inputSchema: { type: 'object' } }] } }))
  } else if (message.method === 'tools/call') {
    const progressToken = message.params._meta?.progressToken
    let out = ''
    for (let i = 1; i <= 3; i++) out += line({ method: 'notifications/progress', params: { progressToken, progress: i, total: 3 } })
    out += line({ id: message.id, result: { content: [{ type: 'text', text: 'done' }] } })
    process.stdout.write(out)
  } else {
    process.stdout.write(line({ id: message.id, error: { code: -32601, message: 'no such method' } }))
  }
})
`

describe('progress notifications', () => {
  it('are all delivered when they arrive together with the result', async () => {
    h = createHarness()
    const script = join(h.dir, 'burstServer.mjs')
    writeFileSync(script, BURST_SERVER)
    await h.mcp.addServer({
      id: 'burst',
      name: 'burst',
      type: 'stdio',
      command: process.execPath,
      args: [script],
      enabled: false
    })
    expect((await h.mcp.startServer('burst')).status.state).toBe('running')
    for (let round = 0; round < 5; round++) {
      const seen: number[] = []
      const result = await h.mcp.callTool('burst', 'burst', {}, { onProgress: (p) => seen.push(p.progress) })
      expect(result.content).toEqual([{ type: 'text', text: 'done' }])
      expect(seen).toEqual([1, 2, 3])
    }
  })
})
