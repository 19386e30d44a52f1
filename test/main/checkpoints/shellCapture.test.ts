import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  SHELL_CAPTURE_MAX_FILE_BYTES,
  startShellCapture
} from '../../../src/main/presenter/checkpoints/shellCapture'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()

/** Runs a real shell command in the workspace, as exec would. */
const sh = (cwd: string, command: string) => execFileSync('/bin/sh', ['-c', command], { cwd })

describe('capturing what a shell command changed', () => {
  it('names the modified, created and deleted files with their content before the command', async () => {
    const workspace = tempDir()
    const data = tempDir()
    writeFileSync(join(workspace, 'kept.txt'), 'same\n')
    writeFileSync(join(workspace, 'changed.txt'), 'before\n')
    writeFileSync(join(workspace, 'gone.txt'), 'bye\n')
    const capture = await startShellCapture(data, workspace)
    sh(workspace, 'echo after > changed.txt && rm gone.txt && mkdir -p sub && echo new > sub/new.txt')
    const changes = await capture!.finish()
    expect(changes.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: 'changed.txt', previousContent: 'before\n' },
      { path: 'gone.txt', previousContent: 'bye\n' },
      { path: 'sub/new.txt', previousContent: null }
    ])
    // The shadow repository lives in the data folder; the workspace gets no .git of its own.
    expect(() => readFileSync(join(workspace, '.git', 'HEAD'))).toThrow()
  })

  it('keeps no content for a file too large or not text, and says so', async () => {
    const workspace = tempDir()
    const data = tempDir()
    writeFileSync(join(workspace, 'big.log'), 'x'.repeat(SHELL_CAPTURE_MAX_FILE_BYTES + 1))
    writeFileSync(join(workspace, 'image.bin'), Buffer.from([0, 1, 2, 3]))
    const capture = await startShellCapture(data, workspace)
    sh(workspace, 'echo y >> big.log && printf "\\004" >> image.bin')
    const changes = await capture!.finish()
    expect(changes.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: 'big.log', previousContent: null, notKept: 'too_large' },
      { path: 'image.bin', previousContent: null, notKept: 'binary' }
    ])
  })

  it("leaves the user's own git repository alone and reports nothing when nothing changed", async () => {
    const workspace = tempDir()
    const data = tempDir()
    sh(workspace, 'git init -q && git config user.email t@t && git config user.name t')
    writeFileSync(join(workspace, 'a.txt'), 'a\n')
    sh(workspace, 'git add a.txt && git commit -qm one')
    mkdirSync(join(workspace, 'node_modules'))
    const capture = await startShellCapture(data, workspace)
    sh(workspace, 'echo dep > node_modules/dep.js')
    expect(await capture!.finish()).toEqual([])
    const second = await startShellCapture(data, workspace)
    sh(workspace, 'echo b > a.txt')
    expect(await second!.finish()).toEqual([{ path: 'a.txt', previousContent: 'a\n' }])
    // The user's index and history are untouched: a.txt is still a plain unstaged change.
    expect(sh(workspace, 'git status --porcelain --untracked-files=no').toString()).toBe(' M a.txt\n')
    expect(sh(workspace, 'git log --oneline').toString().trim().split('\n')).toHaveLength(1)
    rmSync(join(workspace, '.git'), { recursive: true, force: true })
  })
})
