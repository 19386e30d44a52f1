import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Sandbox, SandboxUnavailableError } from '../../../src/main/presenter/sandbox'
import { detectSandbox } from '../../../src/main/presenter/sandbox/detect'
import { BackgroundProcessManager } from '../../../src/main/presenter/toolPresenter/agentTools/processManager'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()

describe('without a sandbox', () => {
  it('says why there is none: Windows, or Linux without bwrap on PATH', async () => {
    expect(await detectSandbox({ platform: 'win32' })).toEqual({
      kind: 'none',
      available: false,
      reason: 'no sandbox on win32: commands are judged by the classifier alone',
      reasonCode: 'unsupported_platform',
      reasonParams: { platform: 'win32' },
      socketGuard: 'none'
    })
    expect(await detectSandbox({ platform: 'linux', pathEnv: tempDir() })).toEqual({
      kind: 'none',
      available: false,
      reason: 'bubblewrap (bwrap) is not installed',
      reasonCode: 'bwrap_missing',
      socketGuard: 'none'
    })
  })

  it('refuses to wrap a command', async () => {
    const sandbox = new Sandbox({ platform: 'win32' })
    expect(await sandbox.status()).toMatchObject({ kind: 'none', available: false })
    const ws = tempDir()
    await expect(
      sandbox.wrap(
        { file: '/bin/sh', args: ['-c', 'true'] },
        { workspaceDir: ws, writableWorkspace: false },
        { cwd: ws, env: {} }
      )
    ).rejects.toBeInstanceOf(SandboxUnavailableError)
  })

  it.skipIf(process.platform === 'win32')(
    'runs a planned command on the host and reports that it was not sandboxed',
    async () => {
      const ws = tempDir()
      const manager = new BackgroundProcessManager({ sandbox: new Sandbox({ platform: 'win32' }) })
      const started = await manager.start({
        sessionId: 's',
        command: 'echo made > made.txt',
        cwd: ws,
        logDir: ws,
        keepStdin: false,
        sandbox: { workspaceDir: ws, writableWorkspace: false }
      })
      await manager.waitForExitOrYield('s', started.processId, 10_000)
      expect(manager.info('s', started.processId)).toMatchObject({
        status: 'done',
        sandboxed: false,
        sandboxUnavailable: 'no sandbox on win32: commands are judged by the classifier alone'
      })
      expect(existsSync(join(ws, 'made.txt')) && readFileSync(join(ws, 'made.txt'), 'utf8')).toBe('made\n')
    }
  )
})
