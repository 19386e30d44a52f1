import { afterEach, describe, expect, it } from 'vitest'
import { chmodSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import type { LLMCoreStreamEvent } from '@shared/types/llm'
import { createHarness, type Harness } from '../mcp/harness'
import { collect, request, useHarness } from './helpers'

/**
 * The failures a user can fix themselves are named in plain words — a command that is not
 * installed or not executable, a server that is not running, a name DNS cannot find — instead
 * of `spawn … ENOENT`, `fetch failed` or "Check the key".
 */
const harness = useHarness()
let mcp: Harness | undefined
afterEach(async () => {
  await mcp?.close()
  mcp = undefined
})

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

type ErrorEvent = Extract<LLMCoreStreamEvent, { type: 'error' }>
const errorOf = (events: LLMCoreStreamEvent[]) => events.find((e): e is ErrorEvent => e.type === 'error')!

describe('provider connection failures', () => {
  it('a local server that is not running: "Nothing is listening … is it running?", in chat, Verify and on add', async () => {
    const { providers } = harness()
    const port = await freePort()
    const added = await providers.addProviderWithModels({
      id: 'local',
      kind: 'ollama',
      name: 'Local Ollama',
      baseUrl: `http://127.0.0.1:${port}`,
      fetchModels: true
    })
    // The notice on add tells which kind of failure it was, so the page does not say "Check the key".
    expect(added.modelFetch).toMatchObject({ ok: false, code: 'network' })
    expect(added.modelFetch?.message).toBe(
      `Nothing is listening at 127.0.0.1:${port}: is the local server (such as Ollama or LM Studio) running?`
    )
    const verify = await providers.verify({ id: 'local' })
    expect(verify).toMatchObject({ ok: false, code: 'network' })
    expect(verify.message).toContain(`Nothing is listening at 127.0.0.1:${port}`)

    await providers.updateProvider('local', { models: [{ id: 'llama3', name: 'llama3' }] })
    const events = await collect(
      providers.coreStream(request('local', { modelId: 'llama3' }), new AbortController().signal)
    )
    const error = errorOf(events)
    expect(error).toMatchObject({ code: 'network', category: 'network' })
    expect(error.error_message).toContain('is the local server')
    expect(error.error_message).not.toMatch(/fetch failed|ECONNREFUSED/)
  })

  it('a name DNS cannot find: says so, not "Check the key"', async () => {
    const { providers } = harness()
    const added = await providers.addProviderWithModels({
      id: 'typo',
      kind: 'openai-compatible',
      name: 'Typo gateway',
      baseUrl: 'https://gateway.no-such-name.invalid/v1',
      apiKey: 'sk-test-0123456789abcd',
      fetchModels: true
    })
    expect(added.modelFetch).toMatchObject({ ok: false, code: 'network' })
    // Offline machines answer EAI_AGAIN, others ENOTFOUND: both are named as DNS.
    expect(added.modelFetch?.message).toMatch(
      /^The server name \(gateway\.no-such-name\.invalid\) could not be (found|looked up right now) \(DNS/
    )
  })
})

describe('MCP servers that cannot start', () => {
  it('a command that does not exist: "Not found: <command>"', async () => {
    mcp = createHarness()
    await mcp.mcp.addServer({
      id: 'ghost',
      name: 'ghost',
      type: 'stdio',
      command: 'nonexistent-mcp-binary-xyz',
      args: [],
      env: {},
      enabled: false
    })
    const view = await mcp.mcp.startServer('ghost')
    expect(view.status.state).toBe('error')
    expect(view.status.lastError).toMatch(/^Not found: nonexistent-mcp-binary-xyz \(is it installed/)
    expect(view.status.lastError).not.toContain('spawn')
  })

  it('a file that is not executable: "Not executable: <command>"', async () => {
    mcp = createHarness()
    const file = join(mcp.dir, 'server.sh')
    writeFileSync(file, '#!/bin/sh\necho hi\n')
    chmodSync(file, 0o644)
    await mcp.mcp.addServer({
      id: 'noexec',
      name: 'noexec',
      type: 'stdio',
      command: file,
      args: [],
      env: {},
      enabled: false
    })
    const view = await mcp.mcp.startServer('noexec')
    expect(view.status.state).toBe('error')
    expect(view.status.lastError).toMatch(
      new RegExp(`^Not executable: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)
    )
  })

  it('a remote server whose port is closed: the connection was refused, in words', async () => {
    mcp = createHarness()
    const port = await freePort()
    await mcp.mcp.addServer({
      id: 'remote',
      name: 'remote',
      type: 'http',
      url: `http://127.0.0.1:${port}/mcp`,
      enabled: false
    })
    const view = await mcp.mcp.startServer('remote')
    expect(view.status.state).toBe('error')
    expect(view.status.lastError).toContain(`Nothing is listening at 127.0.0.1:${port}`)
    expect(view.status.lastError).not.toMatch(/fetch failed/)
  })
})
