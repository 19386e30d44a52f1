import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createShellEnvResolver,
  expandVariables,
  mergePaths,
  readLoginShellPath
} from '../../../src/main/presenter/mcpPresenter/shellEnv'
import { createHarness, EVERYTHING_SERVER, type Harness } from './harness'
import { until } from '../../helpers/until'

const originalShell = process.env.SHELL
// The test run names a plain login shell (vitest.config.ts); these tests read the one in SHELL.
const testLoginShell = process.env.DEEPCHAT_TEST_LOGIN_SHELL
let dir: string | undefined
let h: Harness | undefined
beforeEach(() => {
  delete process.env.DEEPCHAT_TEST_LOGIN_SHELL
})
afterEach(async () => {
  process.env.SHELL = originalShell
  if (testLoginShell !== undefined) process.env.DEEPCHAT_TEST_LOGIN_SHELL = testLoginShell
  delete process.env.DEEPCHAT_APP_ONLY_SECRET
  await h?.close()
  h = undefined
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

/** A "login shell" whose profile puts /opt/login/bin on PATH, like nvm or Homebrew do. */
function fakeShell(body: string): string {
  dir = mkdtempSync(join(tmpdir(), 'shell-env-'))
  const shell = join(dir, 'fakesh')
  writeFileSync(shell, `#!/bin/sh\n${body}\n`)
  chmodSync(shell, 0o755)
  return shell
}

describe('stdio server environment', () => {
  it('takes PATH from the login shell, ahead of the app PATH', async () => {
    process.env.SHELL = fakeShell(
      'echo "profile noise"; PATH=/opt/login/bin:$PATH; export PATH; exec /bin/sh -c "$2"'
    )
    expect(await readLoginShellPath(3_000)).toMatch(/^\/opt\/login\/bin:/)
    const env = await createShellEnvResolver({ timeoutMs: 3_000 })()
    const parts = env.PATH.split(':')
    expect(parts[0]).toBe('/opt/login/bin')
    expect(new Set(parts).size).toBe(parts.length)
  })

  it('falls back to the app PATH when the shell hangs', async () => {
    process.env.SHELL = fakeShell('sleep 30')
    const started = Date.now()
    const env = await createShellEnvResolver({ timeoutMs: 500 })()
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(env.PATH).toBe(mergePaths(process.env.PATH))
  })

  it('stops a hanging shell so its profile can clean up (a lock file its EXIT trap removes)', async () => {
    const shell = fakeShell('')
    const lock = join(dir!, 'rehash.lock')
    // Like pyenv's rehash: a lock file removed by an EXIT trap. A KILL would leave it behind and
    // every later login shell of the user would wait on it.
    writeFileSync(shell, `#!/bin/bash\ntrap 'rm -f "${lock}"' EXIT\ntouch "${lock}"\nsleep 30\n`)
    process.env.SHELL = shell
    expect(await readLoginShellPath(500)).toBeUndefined()
    await until(() => !existsSync(lock), { what: 'the EXIT trap removed the lock', timeoutMs: 2_500 })
    expect(existsSync(lock)).toBe(false)
  })

  it('a real stdio server sees the login PATH and its configured env, not the rest of the app env', async () => {
    process.env.SHELL = fakeShell('PATH=/opt/login/bin:$PATH; export PATH; exec /bin/sh -c "$2"')
    process.env.DEEPCHAT_APP_ONLY_SECRET = 'do-not-leak'
    h = createHarness()
    await h.mcp.addServer({
      id: 'env',
      name: 'env',
      type: 'stdio',
      command: process.execPath,
      args: [EVERYTHING_SERVER, 'stdio'],
      env: { REGION: 'eu-west', GREETING: 'hello $USER' },
      enabled: false
    })
    await h.mcp.startServer('env')
    const result = await h.mcp.callTool('env', 'get-env', {})
    const env = JSON.parse((result.content[0] as { text: string }).text)
    expect(env.PATH.split(':')[0]).toBe('/opt/login/bin')
    expect(env.REGION).toBe('eu-west')
    expect(env.GREETING).toBe(`hello ${process.env.USER ?? '$USER'}`)
    expect(env.DEEPCHAT_APP_ONLY_SECRET).toBeUndefined()
  })

  it('expands ~, $VAR and ${VAR}', () => {
    expect(expandVariables('${A}/x/$B/~', { A: 'a', B: 'b' })).toBe('a/x/b/~')
    expect(expandVariables('~/bin', {})).toMatch(/^\/.+\/bin$/)
    expect(expandVariables('$MISSING', {})).toBe('$MISSING')
  })
})
