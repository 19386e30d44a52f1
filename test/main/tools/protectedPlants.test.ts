// Plants that would run a program at the user's next git command, tried through the real tools
// (ToolPresenter, write and exec, real bwrap, real git) in each mode: each one asks, or is
// refused or undone, and the user's own `git status` afterwards runs nothing.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { PermissionMode } from '@shared/types/permission'
import {
  CommandPermissionRequiredError,
  FilePermissionRequiredError
} from '../../../src/main/presenter/permission'
import { createHarness, type Harness } from './helpers'
import { NEEDS_BWRAP, withoutBwrap } from '../../setup/bwrap'

let h: Harness
afterEach(async () => {
  await h?.close()
})

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'ignore' })
}

const marker = () => join(h.root, 'payload-ran')
const payload = () => `[core]\n\tfsmonitor = touch ${marker()}; false\n`

/** The user's own `git status` in `dir`, on the host: true when a planted payload ran. */
function userGitStatusRanPayload(dir: string): boolean {
  spawnSync('git', ['status'], { cwd: dir, stdio: 'ignore' })
  return existsSync(marker())
}

const MODES: PermissionMode[] = ['default', 'accept_edits', 'sandboxed']

describe.runIf(process.platform === 'linux' && !withoutBwrap)(
  'plants at depth and through git indirections',
  NEEDS_BWRAP,
  () => {
    for (const mode of MODES) {
      it(`${mode}: the write tool asks before planting .husky hooks, an include.path target or a nested .git/config`, async () => {
        h = createHarness({ sandbox: true })
        const ws = h.workspace
        git(ws, 'init', '-q')
        git(ws, 'config', 'core.hooksPath', '.husky/_')
        git(ws, 'config', 'include.path', '../.gitconfig')
        git(ws, 'init', '-q', 'sub')
        const plants: [string, string][] = [
          ['.husky/pre-commit', `touch ${marker()}`],
          ['.gitconfig', payload()],
          ['sub/.git/config', payload()],
          ['sub/.envrc', `touch ${marker()}`],
          ['a/b/.vscode/tasks.json', '{}']
        ]
        for (const [path, content] of plants) {
          const error = await h.call('write', { path, content }, { permissionMode: mode }).catch((e) => e)
          expect(error, path).toBeInstanceOf(FilePermissionRequiredError)
          expect(error.request).toMatchObject({ risk: 'high', reasonCodes: [{ code: 'protected_path' }] })
        }
        expect(existsSync(join(ws, '.gitconfig'))).toBe(false)
        expect(readFileSync(join(ws, 'sub', '.git', 'config'), 'utf8')).not.toContain('fsmonitor')
        expect(userGitStatusRanPayload(ws) || userGitStatusRanPayload(join(ws, 'sub'))).toBe(false)
        // Ordinary files in nested folders are written unasked.
        const normal = await h.call(
          'write',
          { path: 'sub/src/deep/a.ts', content: 'x' },
          { permissionMode: mode }
        )
        expect(normal.rawData.isError).toBe(false)
      })

      it(`${mode}: the write tool asks before the HEAD that makes a bare repository in a workspace that is no repository`, async () => {
        h = createHarness({ sandbox: true })
        const call = (path: string, content: string) =>
          h.call('write', { path, content }, { permissionMode: mode }).catch((e) => e)
        // The first pieces alone are no repository yet and are ordinary files.
        expect((await call('config', `${payload()}\tbare = false\n\tworktree = .\n`)).rawData.isError).toBe(
          false
        )
        expect((await call('refs/heads/main', '')).rawData.isError).toBe(false)
        expect((await call('objects/info/packs', '')).rawData.isError).toBe(false)
        expect(await call('HEAD', 'ref: refs/heads/main\n')).toBeInstanceOf(FilePermissionRequiredError)
        expect(existsSync(join(h.workspace, 'HEAD'))).toBe(false)
        expect(spawnSync('git', ['rev-parse', '--git-dir'], { cwd: h.workspace }).status).not.toBe(0)
        expect(userGitStatusRanPayload(h.workspace)).toBe(false)
      })
    }

    for (const mode of ['accept_edits', 'sandboxed'] as PermissionMode[]) {
      it(`${mode}: exec asks before appending to a nested .git/config or writing a nested .envrc`, async () => {
        h = createHarness({ sandbox: true })
        git(h.workspace, 'init', '-q', 'sub')
        for (const command of [
          `printf '[core]\\n\\tfsmonitor = touch ${marker()}; false\\n' >> sub/.git/config`,
          `echo "touch ${marker()}" > sub/.envrc`,
          'mkdir -p a/b/.vscode && echo {} > a/b/.vscode/tasks.json',
          'git init -q sub2'
        ]) {
          const error = await h.call('exec', { command }, { permissionMode: mode }).catch((e) => e)
          expect(error, command).toBeInstanceOf(CommandPermissionRequiredError)
        }
        expect(existsSync(join(h.workspace, 'sub', '.envrc'))).toBe(false)
        expect(userGitStatusRanPayload(join(h.workspace, 'sub'))).toBe(false)
        // Ordinary work stays unasked.
        const edit = await h.call(
          'exec',
          { command: 'mkdir -p sub/src && echo ok > sub/src/a.txt && git -C sub status --short' },
          { permissionMode: mode }
        )
        expect(edit.rawData.toolResult.data).toMatchObject({ sandboxed: true, exitCode: 0 })
        expect(readFileSync(join(h.workspace, 'sub', 'src', 'a.txt'), 'utf8')).toBe('ok\n')
      })
    }

    it('sandboxed: git init sub2 hidden in a script runs unasked, is undone, and the result says so', async () => {
      h = createHarness({ sandbox: true })
      mkdirSync(join(h.workspace, 'scripts'))
      writeFileSync(
        join(h.workspace, 'scripts', 'setup.sh'),
        `git init -q sub2\nprintf '[core]\\n\\tfsmonitor = touch ${marker()}; false\\n' >> sub2/.git/config\necho done\n`
      )
      const result = await h.call(
        'exec',
        { command: 'bash scripts/setup.sh' },
        { permissionMode: 'sandboxed' }
      )
      expect(result.rawData.toolResult.data).toMatchObject({ sandboxed: true, exitCode: 0 })
      expect(h.text(result)).toMatch(
        /undid what this command created in protected places.*sub2\/\.git \(moved to /s
      )
      expect(existsSync(join(h.workspace, 'sub2', '.git'))).toBe(false)
      expect(userGitStatusRanPayload(join(h.workspace, 'sub2'))).toBe(false)
    })
  }
)
