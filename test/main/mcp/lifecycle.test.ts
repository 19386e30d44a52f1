import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { mcpServerStatusChanged } from '@shared/contracts/events/mcp.events'
import type { McpServerStatus } from '@shared/types/mcp'
import { DEFAULT_RECONNECT } from '../../../src/main/presenter/mcpPresenter/serverManager'
import { createHarness, testServerInput, TEST_SERVER, type Harness } from './harness'
import { until } from '../../helpers/until'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('server lifecycle', () => {
  it('a crash mid-call gives a clear error, then the server reconnects by itself', async () => {
    h = createHarness()
    const startLog = join(h.dir, 'starts.log')
    await h.mcp.addServer({ ...testServerInput('crashy', { START_LOG: startLog }), enabled: false })
    await h.mcp.startServer('crashy')

    const failure = await h.mcp.callTool('crashy', 'crash', {}).catch((e) => e)
    expect(failure).toMatchObject({ code: 'mcp_connection_lost' })
    expect(failure.message).toContain('MCP server "crashy" went away during "crash"')
    expect(failure.message).toContain('panic: simulated crash')

    // During the outage a call fails clearly instead of hanging.
    const during = await h.mcp.callTool('crashy', 'echo', { message: 'x' }).catch((e) => e)
    expect(['mcp_server_unavailable', 'mcp_tool_not_found']).toContain(during.code)

    await h.waitForStatus('crashy', (s) => s.state === 'running' && s.reconnectAttempt === undefined)
    expect(readFileSync(startLog, 'utf8').trim().split('\n')).toHaveLength(2)
    const states = h.eventsNamed(mcpServerStatusChanged).map((p) => (p as { status: McpServerStatus }).status)
    expect(
      states.some(
        (s) =>
          s.state === 'error' &&
          s.reconnectAttempt === 1 &&
          /reconnecting \(attempt 1\/3\)/.test(s.lastError ?? '')
      )
    ).toBe(true)
    expect((await h.mcp.callTool('crashy', 'echo', { message: 'back' })).content).toEqual([
      { type: 'text', text: 'echo: back' }
    ])
  })

  it('gives up after the reconnect limit and says why', async () => {
    h = createHarness()
    const flag = join(h.dir, 'fail-next')
    // A wrapper that fails to start once the flag file exists: the first start works, the restarts do not.
    const wrapper = join(h.dir, 'wrapper.mjs')
    writeFileSync(
      wrapper,
      `import { existsSync } from 'node:fs'\nif (existsSync(${JSON.stringify(flag)})) { process.stderr.write('fatal: token expired\\n'); process.exit(3) }\nawait import(${JSON.stringify(TEST_SERVER)})\n`
    )
    await h.mcp.addServer({
      id: 'flaky',
      name: 'flaky',
      type: 'stdio',
      command: process.execPath,
      args: [wrapper],
      enabled: false
    })
    await h.mcp.startServer('flaky')
    writeFileSync(flag, '')
    await h.mcp.callTool('flaky', 'crash', {}).catch(() => {})
    const final = await h.waitForStatus(
      'flaky',
      (s) => s.state === 'error' && /^Gave up/.test(s.lastError ?? '')
    )
    expect(final.lastError).toMatch(/Gave up after 3 reconnect attempts/)
    expect(final.lastError).toContain('fatal: token expired')
    expect(final.stderrTail).toContain('fatal: token expired')
  })

  it('gives up on a server that exits a second after every connect, showing the exit code and stderr', async () => {
    h = createHarness({ reconnect: { baseDelayMs: 50, maxDelayMs: 200, maxAttempts: 5, stableMs: 30_000 } })
    const startLog = join(h.dir, 'starts.log')
    const wrapper = join(h.dir, 'shortLived.mjs')
    writeFileSync(
      wrapper,
      `await import(${JSON.stringify(TEST_SERVER)})\nsetTimeout(() => { process.stderr.write('Error: lost the database\\n    at connect (db.js:1)\\n'); process.exit(7) }, 800)\n`
    )
    await h.mcp.addServer({
      id: 'shorty',
      name: 'shorty',
      type: 'stdio',
      command: process.execPath,
      args: [wrapper],
      env: { START_LOG: startLog },
      enabled: false
    })
    const started = Date.now()
    await h.mcp.startServer('shorty')
    const final = await h.waitForStatus(
      'shorty',
      (s) => s.state === 'error' && /^Gave up/.test(s.lastError ?? ''),
      60_000
    )
    expect(Date.now() - started).toBeLessThan(60_000)
    expect(final.lastError).toMatch(/Gave up after 5 reconnect attempts/)
    expect(final.lastError).toContain('exited with code 7')
    expect(final.lastError).toContain('Error: lost the database')
    expect(final.lastError).toContain('at connect (db.js:1)')
    // The first start and five reconnects; the counter went up although each connect succeeded.
    expect(readFileSync(startLog, 'utf8').trim().split('\n')).toHaveLength(6)
    const attempts = h
      .eventsNamed(mcpServerStatusChanged)
      .map((p) => (p as { status: McpServerStatus }).status.reconnectAttempt)
      .filter((n): n is number => n !== undefined)
    expect(Math.max(...attempts)).toBe(5)
  }, 70_000)

  it('backs off for well under a minute in total with the default policy', () => {
    const { maxAttempts, baseDelayMs, maxDelayMs } = DEFAULT_RECONNECT
    let total = 0
    for (let attempt = 1; attempt <= maxAttempts; attempt++)
      total += Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1))
    expect(total).toBeLessThanOrEqual(45_000)
  })

  it('reports a server that cannot start as error with its stderr, without retrying', async () => {
    h = createHarness()
    const startLog = join(h.dir, 'starts.log')
    await h.mcp.addServer({
      ...testServerInput('broken', { FAIL_ON_START: '1', START_LOG: startLog }),
      enabled: false
    })
    const view = await h.mcp.startServer('broken')
    expect(view.status.state).toBe('error')
    expect(view.status.lastError).toContain('fatal: missing API_TOKEN')
    // A retry is decided when the start fails: it would show as a scheduled attempt right now.
    expect(view.status.reconnectAttempt).toBeUndefined()
    expect(view.status.lastError).not.toMatch(/reconnecting/)
    expect(h.mcp.getServer('broken').status).toMatchObject({ state: 'error' })
    expect(readFileSync(startLog, 'utf8').trim().split('\n')).toHaveLength(1)
  })

  it('stop kills the whole process tree, including grandchildren', async () => {
    h = createHarness()
    const pidFile = join(h.dir, 'grandchild.pid')
    // A shell wrapper (like npx) that runs the server as its child and a sleeping grandchild.
    const script = `sleep 300 & echo $! > ${pidFile}; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(TEST_SERVER)}`
    await h.mcp.addServer({
      id: 'tree',
      name: 'tree',
      type: 'stdio',
      command: '/bin/sh',
      args: ['-c', script],
      enabled: false
    })
    await h.mcp.startServer('tree')
    const grandchild = Number(readFileSync(pidFile, 'utf8').trim())
    expect(isAlive(grandchild)).toBe(true)
    await h.mcp.stopServer('tree')
    await until(() => !isAlive(grandchild), { what: 'the grandchild is gone', timeoutMs: 3_000 })
    expect(isAlive(grandchild)).toBe(false)
    expect(h.mcp.getServer('tree').status.state).toBe('stopped')
  })

  it('starts enabled servers in parallel at launch and skips disabled ones', async () => {
    h = createHarness()
    await h.mcp.addServer({ ...testServerInput('a'), enabled: false })
    await h.mcp.addServer({ ...testServerInput('b'), enabled: false })
    // Enabled in the stored config only, as after a restart of the app.
    await h.mcp.store.update('a', { enabled: true, description: 'x' })
    await h.mcp.startEnabledServers()
    expect(h.mcp.getServer('a').status.state).toBe('running')
    expect(h.mcp.getServer('b').status.state).toBe('stopped')
    // The built-in time server is added on first launch and started.
    expect(h.mcp.getServer('deepchat-time').status.state).toBe('running')
  })

  it('setEnabled starts and stops; remove stops and forgets', async () => {
    h = createHarness()
    await h.mcp.addServer({ ...testServerInput('s'), enabled: false })
    await h.mcp.setEnabled('s', true)
    await h.waitForStatus('s', (s) => s.state === 'running')
    await h.mcp.setEnabled('s', false)
    expect(h.mcp.getServer('s').status.state).toBe('stopped')
    await h.mcp.removeServer('s')
    expect(() => h!.mcp.getServer('s')).toThrow(/No MCP server/)
  })
})
