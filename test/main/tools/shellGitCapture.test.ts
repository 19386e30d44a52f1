import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startGitCapture } from '../../../src/main/presenter/toolPresenter/agentTools/shellChanges/gitCapture'
import {
  SHELL_CAPTURE_MAX_FILE_BYTES,
  type ShellCapture
} from '../../../src/main/presenter/toolPresenter/agentTools/shellChanges/limits'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()

/** Runs a real shell command in the workspace, as exec would. */
const sh = (cwd: string, command: string) => execFileSync('/bin/sh', ['-c', command], { cwd })

/** Starts a capture that must start (the workspace is small, git is there). */
async function capturing(data: string, workspace: string): Promise<ShellCapture> {
  const started = await startGitCapture(data, workspace)
  if (!started.capture) throw new Error(`capture did not start: ${started.notRecorded}`)
  return started.capture
}

const changesOf = async (capture: ShellCapture) =>
  (await capture.finish()).changes.sort((a, b) => a.path.localeCompare(b.path))

describe('capturing what a shell command changed', () => {
  it('names the modified, created and deleted files with their content before the command', async () => {
    const workspace = tempDir()
    const data = tempDir()
    writeFileSync(join(workspace, 'kept.txt'), 'same\n')
    writeFileSync(join(workspace, 'changed.txt'), 'before\n')
    writeFileSync(join(workspace, 'gone.txt'), 'bye\n')
    const capture = await capturing(data, workspace)
    sh(workspace, 'echo after > changed.txt && rm gone.txt && mkdir -p sub && echo new > sub/new.txt')
    expect(await changesOf(capture)).toEqual([
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
    const capture = await capturing(data, workspace)
    sh(workspace, 'echo y >> big.log && printf "\\004" >> image.bin')
    expect(await changesOf(capture)).toEqual([
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
    const capture = await capturing(data, workspace)
    sh(workspace, 'echo dep > node_modules/dep.js')
    expect(await capture.finish()).toEqual({ changes: [] })
    const second = await capturing(data, workspace)
    sh(workspace, 'echo b > a.txt')
    expect(await second.finish()).toEqual({ changes: [{ path: 'a.txt', previousContent: 'a\n' }] })
    // The user's index and history are untouched: a.txt is still a plain unstaged change.
    expect(sh(workspace, 'git status --porcelain --untracked-files=no').toString()).toBe(' M a.txt\n')
    expect(sh(workspace, 'git log --oneline').toString().trim().split('\n')).toHaveLength(1)
    rmSync(join(workspace, '.git'), { recursive: true, force: true })
  })
})

describe('a bounded capture', () => {
  it('gives each changed file its own old content when several had the same content', async () => {
    const workspace = tempDir()
    const data = tempDir()
    for (const name of ['one.txt', 'two.txt', 'three.txt']) writeFileSync(join(workspace, name), 'same\n')
    // A warm index first, as between commands: only stat data tells what changed.
    await (await capturing(data, workspace)).finish()
    const capture = await capturing(data, workspace)
    sh(workspace, 'echo 1 > one.txt && rm two.txt && echo same > four.txt')
    expect(await changesOf(capture)).toEqual([
      { path: 'four.txt', previousContent: null },
      { path: 'one.txt', previousContent: 'same\n' },
      { path: 'two.txt', previousContent: 'same\n' }
    ])
  })

  it('does not capture a workspace with more files than the cap, says so, and does not try again at once', async () => {
    const workspace = tempDir()
    const data = tempDir()
    for (let i = 0; i < 5; i++) writeFileSync(join(workspace, `f${i}.txt`), `${i}\n`)
    const first = await startGitCapture(data, workspace, { maxFiles: 4 })
    expect(first.capture).toBeNull()
    expect(first).toMatchObject({ notRecorded: expect.stringContaining('more than 4 files') })
    // The next command is not held up by another snapshot of the same workspace.
    const second = await startGitCapture(data, workspace, { maxFiles: 4 })
    expect(second).toMatchObject({ capture: null, notRecorded: expect.stringContaining('more than 4 files') })
  })

  it('runs the command without a capture when the snapshot outlasts its budget, and the next one is recorded', async () => {
    const workspace = tempDir()
    const data = tempDir()
    for (let i = 0; i < 200; i++) writeFileSync(join(workspace, `f${i}.txt`), `${i}\n`)
    const late = await startGitCapture(data, workspace, { budgetMs: 0 })
    expect(late).toMatchObject({ capture: null, notRecorded: expect.stringContaining('longer than 0 s') })
    // The snapshot went on in the background: while it holds the index nothing is captured
    // (an index that is not "now" must never stand for "before"); once done, capture works.
    const shadow = join(data, readdirSync(data)[0])
    const settled = () => existsSync(join(shadow, 'index')) && !existsSync(join(shadow, 'index.lock'))
    await expect.poll(settled, { timeout: 20_000 }).toBe(true)
    const capture = await capturing(data, workspace)
    sh(workspace, 'echo changed > f7.txt')
    expect(await changesOf(capture)).toEqual([{ path: 'f7.txt', previousContent: '7\n' }])
  })

  it('captures nothing while another snapshot holds the shadow index', async () => {
    const workspace = tempDir()
    const data = tempDir()
    writeFileSync(join(workspace, 'a.txt'), 'a\n')
    await (await capturing(data, workspace)).finish()
    const lock = join(data, readdirSync(data)[0], 'index.lock')
    writeFileSync(lock, '')
    const started = await startGitCapture(data, workspace)
    expect(started).toMatchObject({
      capture: null,
      notRecorded: expect.stringContaining('still being built')
    })
    rmSync(lock)
  })
})
