import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NEEDS_BWRAP, withoutBwrap } from '../../setup/bwrap'
import { CommandPermissionRequiredError } from '../../../src/main/presenter/permission'
import { createHarness, TEST_SECRET, type Harness } from './helpers'

/**
 * exec through ToolPresenter with the real OS sandbox (bubblewrap; CI installs it): a command
 * nobody approved runs inside it, one the user approved runs as approved on the host.
 */
let h: Harness
beforeEach(() => {
  h = createHarness({ sandbox: true, appData: true })
  mkdirSync(join(h.workspace, '.git'), { recursive: true })
  writeFileSync(join(h.workspace, '.git', 'config'), '[core]\n')
  writeFileSync(join(h.workspace, 'notes.txt'), 'workspace file\n')
  mkdirSync(join(h.home, '.ssh'), { recursive: true })
  writeFileSync(join(h.home, '.ssh', 'id_rsa'), 'PRIVATE KEY')
})
afterEach(async () => {
  await h.close()
})

type Data = { sandboxed?: boolean; exitCode?: number }
const data = (result: Awaited<ReturnType<Harness['call']>>): Data => result.rawData.toolResult.data as Data
const asked = (promise: Promise<unknown>) =>
  expect(promise).rejects.toBeInstanceOf(CommandPermissionRequiredError)

describe.runIf(process.platform === 'linux')('exec and the sandbox', () => {
  it.skipIf(withoutBwrap)(
    'runs an unasked read-only command in the sandbox, and says so to the model',
    NEEDS_BWRAP,
    async () => {
      const result = await h.call('exec', { command: 'cat notes.txt' })
      expect(data(result)).toMatchObject({ sandboxed: true, exitCode: 0 })
      expect(h.text(result)).toContain('workspace file')
      expect(h.text(result)).toContain('Ran in the sandbox')
    }
  )

  it('runs a command the user allowed on the host, as approved', async () => {
    const error = await h.call('exec', { command: 'touch made-by-user.txt' }).catch((e) => e)
    expect(error).toBeInstanceOf(CommandPermissionRequiredError)
    h.gate.decide(error.request, 'once')
    const result = await h.call('exec', { command: 'touch made-by-user.txt' })
    expect(data(result)).toMatchObject({ sandboxed: false, exitCode: 0 })
    expect(existsSync(join(h.workspace, 'made-by-user.txt'))).toBe(true)
  })

  it.skipIf(withoutBwrap)(
    'in sandboxed mode runs any workspace command unasked with the workspace writable, but not .git',
    NEEDS_BWRAP,
    async () => {
      const mode = { permissionMode: 'sandboxed' as const }
      const build = await h.call(
        'exec',
        { command: "node -e \"require('fs').writeFileSync('out.txt', 'built')\" && cat out.txt" },
        mode
      )
      expect(data(build)).toMatchObject({ sandboxed: true, exitCode: 0 })
      expect(readFileSync(join(h.workspace, 'out.txt'), 'utf8')).toBe('built')
      // The classifier asks before a protected entry; a program that writes it anyway meets a read-only mount.
      await asked(h.call('exec', { command: 'echo "[core] fsmonitor = evil" >> .git/config' }, mode))
      const sneaky = await h.call(
        'exec',
        { command: "node -e \"require('fs').appendFileSync('.git/config', 'x')\"" },
        mode
      )
      expect(data(sneaky)).toMatchObject({ sandboxed: true })
      expect(data(sneaky).exitCode).not.toBe(0)
      expect(readFileSync(join(h.workspace, '.git', 'config'), 'utf8')).toBe('[core]\n')
      await asked(h.call('exec', { command: 'curl https://example.com' }, mode))
    }
  )

  it.skipIf(withoutBwrap)(
    'keeps home secrets, the data folder and secret variables from a sandboxed command the classifier let through',
    NEEDS_BWRAP,
    async () => {
      const mode = { permissionMode: 'sandboxed' as const }
      process.env.DEEPCHAT_TEST_API_KEY = TEST_SECRET
      try {
        // The paths hide inside a script, where no classifier can see them.
        const targets = [
          join(h.home, '.ssh', 'id_rsa'),
          h.appData!.secretsFiles[0],
          join(h.dataDir, 'db.sqlite')
        ]
        writeFileSync(
          join(h.workspace, 'probe.js'),
          `const fs = require('fs')\nfor (const p of ${JSON.stringify(targets)}) { try { fs.readFileSync(p); console.log('READ', p) } catch (e) { console.log('DENIED', e.code) } }\nconsole.log('KEY', process.env.DEEPCHAT_TEST_API_KEY ?? 'none')\n`
        )
        const probe = await h.call('exec', { command: 'node probe.js' }, mode)
        expect(data(probe)).toMatchObject({ sandboxed: true })
        expect(h.text(probe).match(/DENIED/g)).toHaveLength(3)
        expect(h.text(probe)).not.toContain('READ ')
        expect(h.text(probe)).toContain('KEY none')
        expect(h.text(probe)).not.toContain(TEST_SECRET)
      } finally {
        delete process.env.DEEPCHAT_TEST_API_KEY
      }
    }
  )

  it('asks before running a command outside the sandbox, then runs it on the host', async () => {
    const error = await h
      .call('exec', { command: 'ls', outside_sandbox: true, description: 'needs the network' })
      .catch((e: unknown) => e)
    if (!(error instanceof CommandPermissionRequiredError))
      throw new Error(`ran without asking: ${JSON.stringify(error)}`)
    expect(error.request.reasonCodes?.[0]).toEqual({ code: 'outside_sandbox' })
    h.gate.decide(error.request, 'once')
    const result = await h.call('exec', {
      command: 'ls',
      outside_sandbox: true,
      description: 'needs the network'
    })
    expect(data(result)).toMatchObject({ sandboxed: false, exitCode: 0 })
  })

  it('runs everything on the host in full access', async () => {
    const result = await h.call('exec', { command: 'touch full.txt' }, { permissionMode: 'full_access' })
    expect(data(result)).toMatchObject({ sandboxed: false, exitCode: 0 })
    const read = await h.call('exec', { command: 'ls' }, { permissionMode: 'full_access' })
    expect(data(read).sandboxed).toBe(false)
  })
})
