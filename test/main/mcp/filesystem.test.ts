import { afterEach, describe, expect, it } from 'vitest'
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { createHarness, type Harness } from './harness'

const require = createRequire(import.meta.url)
const FILESYSTEM_SERVER = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js')

let h: Harness | undefined
const dirs: string[] = []
afterEach(async () => {
  await h?.close()
  h = undefined
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-fs-')))
  dirs.push(dir)
  return dir
}

const text = (result: { content: { type: string; text?: string }[] }) =>
  result.content.map((item) => (item.type === 'text' ? item.text : '')).join('\n')

describe('@modelcontextprotocol/server-filesystem over stdio', () => {
  it('lists its tools, writes and reads files inside the allowed folder, and refuses others', async () => {
    const allowed = tempDir()
    const outside = tempDir()
    writeFileSync(join(allowed, 'notes.txt'), 'first line\nsecond line\n')
    writeFileSync(join(outside, 'secret.txt'), 'do not read')
    h = createHarness()
    await h.mcp.addServer({
      id: 'fs',
      name: 'filesystem',
      type: 'stdio',
      command: process.execPath,
      args: [FILESYSTEM_SERVER, allowed],
      enabled: false
    })
    const view = await h.mcp.startServer('fs')
    expect(view.status.state).toBe('running')

    const tools = (await h.mcp.listTools()).filter((t) => t.serverId === 'fs')
    const names = tools.map((t) => t.name)
    expect(names).toEqual(
      expect.arrayContaining(['read_text_file', 'write_file', 'list_directory', 'edit_file'])
    )
    // Annotations survive: the loop may run read-only tools in parallel.
    expect(tools.find((t) => t.name === 'read_text_file')?.annotations?.readOnlyHint).toBe(true)

    const read = await h.mcp.callTool('fs', 'read_text_file', { path: join(allowed, 'notes.txt') })
    expect(read.isError).toBe(false)
    expect(text(read)).toContain('second line')

    const written = await h.mcp.callTool('fs', 'write_file', {
      path: join(allowed, 'new.md'),
      content: '# written by MCP\n'
    })
    expect(written.isError).toBe(false)
    expect(readFileSync(join(allowed, 'new.md'), 'utf8')).toBe('# written by MCP\n')

    const listing = await h.mcp.callTool('fs', 'list_directory', { path: allowed })
    expect(text(listing)).toMatch(/\[FILE\] new\.md/)

    const refused = await h.mcp.callTool('fs', 'read_text_file', { path: join(outside, 'secret.txt') })
    expect(refused.isError).toBe(true)
    expect(text(refused)).toMatch(/denied|outside|not allowed/i)
    expect(text(refused)).not.toContain('do not read')
  })
})
