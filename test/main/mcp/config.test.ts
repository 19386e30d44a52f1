import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MASKED_SECRET } from '@shared/types/mcp'
import {
  mcpAdd,
  mcpCallTool,
  mcpExportJson,
  mcpImportJson,
  mcpList,
  mcpRemove,
  mcpUpdate
} from '@shared/contracts/routes/mcp.routes'
import { Router } from '../../../src/main/bridge/router'
import { registerMcpRoutes } from '../../../src/main/routes/mcp'
import { parseMcpServersJson } from '../../../src/main/presenter/mcpPresenter/importExport'
import { createHarness, testServerInput, type Harness } from './harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

function setup() {
  h = createHarness()
  const router = new Router()
  registerMcpRoutes(router, { mcp: h.mcp })
  return { h, router }
}

describe('MCP server config', () => {
  it('keeps secret env and header values out of the database and masks them in routes', async () => {
    const { h, router } = setup()
    const { server } = await router.call(mcpAdd, {
      server: {
        name: 'Remote Thing',
        type: 'http',
        url: 'https://example.invalid/mcp',
        headers: { Authorization: 'Bearer sk-live-123', 'X-Team': 'blue' },
        env: { API_KEY: 'abc', REGION: 'eu' },
        enabled: false
      }
    })
    expect(server.id).toBe('remote-thing')
    expect(server.headers).toEqual({ Authorization: MASKED_SECRET, 'X-Team': 'blue' })
    expect(server.env).toEqual({ API_KEY: MASKED_SECRET, REGION: 'eu' })
    expect(server.secretKeys).toEqual({ env: ['API_KEY'], headers: ['Authorization'] })

    const dbBytes =
      readFileSync(join(h.dir, 'test.db')).toString('latin1') +
      readFileSync(join(h.dir, 'test.db-wal')).toString('latin1')
    expect(dbBytes).toContain('X-Team')
    expect(dbBytes).not.toContain('sk-live-123')
    expect(dbBytes).not.toContain('"abc"')
    expect((await h.mcp.store.resolve('remote-thing')).headers.Authorization).toBe('Bearer sk-live-123')

    // Sending the mask back keeps the secret; a new value replaces it.
    await router.call(mcpUpdate, {
      serverId: 'remote-thing',
      patch: { headers: { Authorization: MASKED_SECRET, 'X-Team': 'red' } }
    })
    expect((await h.mcp.store.resolve('remote-thing')).headers).toEqual({
      Authorization: 'Bearer sk-live-123',
      'X-Team': 'red'
    })
    await router.call(mcpUpdate, { serverId: 'remote-thing', patch: { env: { API_KEY: 'new' } } })
    expect((await h.mcp.store.resolve('remote-thing')).env).toEqual({ API_KEY: 'new' })

    await router.call(mcpRemove, { serverId: 'remote-thing' })
    expect(await h.config.getSecret('mcp.remote-thing.header.Authorization')).toBeUndefined()
    expect(await h.config.getSecret('mcp.remote-thing.env.API_KEY')).toBeUndefined()
  })

  it('rejects invalid configs with a clear error and keeps the stored list intact', async () => {
    const { router } = setup()
    await router.call(mcpAdd, { server: { ...testServerInput('ok'), enabled: false } })
    await expect(
      router.call(mcpAdd, { server: { name: 'x', type: 'http', url: 'ftp://nope' } })
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('url')
    })
    await expect(router.call(mcpAdd, { server: { name: 'y', type: 'stdio' } })).rejects.toMatchObject({
      message: expect.stringContaining('needs a command')
    })
    await expect(router.call(mcpUpdate, { serverId: 'ok', patch: { command: '' } })).rejects.toMatchObject({
      code: 'mcp_invalid_config'
    })
    await expect(
      router.call(mcpAdd, { server: { name: 'z', type: 'inmemory', command: 'no-such-builtin' } })
    ).rejects.toMatchObject({
      code: 'mcp_unknown_builtin'
    })
    const { servers } = await router.call(mcpList, {})
    expect(servers.map((s) => [s.id, s.command])).toEqual([['ok', process.execPath]])
  })

  it('imports Claude Desktop and url-style JSON and exports it back', async () => {
    const { router } = setup()
    const json = `{
      // pasted from a README
      "mcpServers": {
        "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": { "GITHUB_TOKEN": "ghp_x" } },
        "remote": { "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer t" } },
        "legacy": { "type": "sse", "url": "https://old.example.com/sse", "disabled": true },
        "weird": { "type": "carrier-pigeon" },
      }
    }`
    const result = await router.call(mcpImportJson, { json })
    expect(result.imported.map((s) => [s.name, s.type, s.enabled])).toEqual([
      ['files', 'stdio', true],
      ['remote', 'http', true],
      ['legacy', 'sse', false]
    ])
    expect(result.skipped).toEqual([{ name: 'weird', reason: 'unknown type "carrier-pigeon"' }])
    expect(result.imported[0].env).toEqual({ GITHUB_TOKEN: MASKED_SECRET })

    const again = await router.call(mcpImportJson, { json })
    expect(again.imported).toEqual([])
    expect(again.skipped.map((s) => s.reason)).toContain('a server with this name already exists')

    const masked = JSON.parse((await router.call(mcpExportJson, {})).json)
    expect(masked.mcpServers.files).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
      env: { GITHUB_TOKEN: MASKED_SECRET },
      timeoutMs: 60000
    })
    expect(masked.mcpServers.remote).toMatchObject({ type: 'http', url: 'https://mcp.example.com/mcp' })
    expect(masked.mcpServers.legacy).toMatchObject({ type: 'sse', disabled: true })
    const full = JSON.parse((await router.call(mcpExportJson, { includeSecrets: true })).json)
    expect(full.mcpServers.remote.headers).toEqual({ Authorization: 'Bearer t' })
    // What we export, we can import.
    expect(parseMcpServersJson(JSON.stringify(full)).servers.map((s) => s.type)).toEqual([
      'stdio',
      'http',
      'sse'
    ])
  })

  it('rejects text that is not an mcpServers document', async () => {
    const { router } = setup()
    await expect(router.call(mcpImportJson, { json: 'hello' })).rejects.toMatchObject({
      code: 'mcp_import_invalid'
    })
    await expect(router.call(mcpImportJson, { json: '{"servers": {}}' })).rejects.toMatchObject({
      code: 'mcp_import_invalid'
    })
  })

  it('the settings test call needs approval unless the tool is auto-approved', async () => {
    const { h, router } = setup()
    await router.call(mcpAdd, {
      server: { ...testServerInput('t'), enabled: false, autoApproveTools: ['echo'] }
    })
    await h.mcp.startServer('t')
    const { result } = await router.call(mcpCallTool, {
      serverId: 't',
      toolName: 'echo',
      args: { message: 'ok' }
    })
    expect(result.content).toEqual([{ type: 'text', text: 'echo: ok' }])
    await expect(
      router.call(mcpCallTool, { serverId: 't', toolName: 'media', args: {} })
    ).rejects.toMatchObject({
      code: 'permission_required'
    })
    expect(h.mcp.isAutoApproved('t', 'echo')).toBe(true)
    expect(h.mcp.isAutoApproved('t', 'media')).toBe(false)
  })
})
