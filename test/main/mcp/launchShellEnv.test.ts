import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { EVERYTHING_SERVER } from './harness'
import { until } from '../../helpers/until'

const saved = { HOME: process.env.HOME, SHELL: process.env.SHELL }
// The test run names a plain login shell (vitest.config.ts); this test reads the one in SHELL.
const testLoginShell = process.env.DEEPCHAT_TEST_LOGIN_SHELL
let dir: string | undefined
let presenters: Presenters | undefined

beforeEach(() => {
  delete process.env.DEEPCHAT_TEST_LOGIN_SHELL
})
afterEach(async () => {
  await presenters?.dispose()
  presenters = undefined
  process.env.HOME = saved.HOME
  process.env.SHELL = saved.SHELL
  if (testLoginShell !== undefined) process.env.DEEPCHAT_TEST_LOGIN_SHELL = testLoginShell
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

/** Text of the first content item of an MCP or agent tool result. */
function firstText(content: { type: string; text?: string }[]): string {
  const item = content.find((c) => c.type === 'text')
  if (!item?.text) throw new Error(`no text in ${JSON.stringify(content)}`)
  return item.text
}

describe('login-shell environment at launch', () => {
  it('is resolved once, when the app starts, and both stdio servers and exec get its PATH', async () => {
    dir = mkdtempSync(join(tmpdir(), 'launch-shell-env-'))
    const home = join(dir, 'home')
    const loginBin = join(home, 'login-bin')
    const workspace = join(dir, 'ws')
    mkdirSync(loginBin, { recursive: true })
    mkdirSync(workspace)
    const runs = join(home, 'profile-runs')
    // A real bash login profile, like nvm's or Homebrew's: it puts a folder on PATH. Each run
    // leaves a line, so the test sees when and how often the login shell was read.
    writeFileSync(
      join(home, '.bash_profile'),
      `echo run >> "$HOME/profile-runs"\nexport PATH="$HOME/login-bin:$PATH"\n`
    )
    process.env.HOME = home
    process.env.SHELL = '/bin/bash'

    presenters = createPresenters(createNodePlatform({ dataDir: join(dir, 'data'), log: () => {} }), {
      log: () => {},
      resolveShellEnvAtLaunch: true
    })
    // Nothing has started a server or run a command yet: the launch itself reads the profile.
    await until(() => existsSync(runs), { what: 'the login profile to run at launch', timeoutMs: 10_000 })

    await presenters.mcp.addServer({
      id: 'env',
      name: 'env',
      type: 'stdio',
      command: process.execPath,
      args: [EVERYTHING_SERVER, 'stdio'],
      enabled: false
    })
    const view = await presenters.mcp.startServer('env')
    expect(view.status.state).toBe('running')
    const serverEnv = JSON.parse(
      firstText(
        (await presenters.mcp.callTool('env', 'get-env', {})).content as { type: string; text?: string }[]
      )
    )
    expect(serverEnv.PATH.split(':')[0]).toBe(loginBin)

    const exec = await presenters.tools.callTool(
      { id: 'e1', name: 'exec', arguments: JSON.stringify({ command: 'printenv PATH' }) },
      { sessionId: 's1', workspaceDir: workspace, permissionMode: 'default' }
    )
    expect(exec.rawData.isError).toBe(false)
    expect(firstText(exec.content).split('\n')[0].split(':')[0]).toBe(loginBin)

    // One resolution shared by both.
    expect(readFileSync(runs, 'utf8').trim().split('\n')).toEqual(['run'])
  })
})
