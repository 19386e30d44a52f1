import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ShellCaptures } from '../../../src/main/presenter/toolPresenter/agentTools/shellChanges'
import {
  SHELL_CAPTURE_MAX_FILE_BYTES,
  type ShellCapture,
  type ShellCaptureResult
} from '../../../src/main/presenter/toolPresenter/agentTools/shellChanges/limits'
import { useTempDirs } from '../helpers/tempDir'

/*
 * The watched mirror (Linux): what a real shell command changed, without a snapshot before it.
 * Each case runs real commands in a real folder watched with inotify.
 */
const tempDir = useTempDirs()
const sh = (cwd: string, command: string) => execFileSync('/bin/sh', ['-c', command], { cwd })

let captures: ShellCaptures
afterEach(() => captures?.dispose())

async function capturing(data: string, workspace: string): Promise<ShellCapture> {
  const started = await captures.start(data, workspace)
  if (!started.capture) throw new Error(`capture did not start: ${started.notRecorded}`)
  return started.capture
}

/** Runs `command` in the workspace with a capture around it, as exec does. */
async function changesOf(data: string, workspace: string, command: string): Promise<ShellCaptureResult> {
  const capture = await capturing(data, workspace)
  sh(workspace, command)
  const result = await capture.finish()
  return { ...result, changes: result.changes.sort((a, b) => a.path.localeCompare(b.path)) }
}

describe.runIf(process.platform === 'linux')('the watched mirror of a workspace', () => {
  it('names the modified, created and deleted files with their content before the command', async () => {
    captures = new ShellCaptures()
    const [workspace, data] = [tempDir(), tempDir()]
    writeFileSync(join(workspace, 'kept.txt'), 'same\n')
    writeFileSync(join(workspace, 'changed.txt'), 'before\n')
    writeFileSync(join(workspace, 'gone.txt'), 'bye\n')
    expect(
      await changesOf(
        data,
        workspace,
        'echo after > changed.txt && rm gone.txt && mkdir -p sub/deep && echo new > sub/deep/new.txt'
      )
    ).toEqual({
      changes: [
        { path: 'changed.txt', previousContent: 'before\n' },
        { path: 'gone.txt', previousContent: 'bye\n' },
        { path: 'sub/deep/new.txt', previousContent: null }
      ]
    })
    // The next command starts from what the last one left, and sees only its own change.
    expect(await changesOf(data, workspace, 'echo again >> sub/deep/new.txt')).toEqual({
      changes: [{ path: 'sub/deep/new.txt', previousContent: 'new\n' }]
    })
  })

  it('does not charge a command with what someone else changed before it ran', async () => {
    captures = new ShellCaptures()
    const [workspace, data] = [tempDir(), tempDir()]
    writeFileSync(join(workspace, 'notes.txt'), 'v1\n')
    await changesOf(data, workspace, 'true')
    // The user edits the file in their editor between two commands.
    writeFileSync(join(workspace, 'notes.txt'), 'edited by the user\n')
    writeFileSync(join(workspace, 'theirs.txt'), 'mine\n')
    expect(await changesOf(data, workspace, 'echo model > notes.txt')).toEqual({
      changes: [{ path: 'notes.txt', previousContent: 'edited by the user\n' }]
    })
  })

  it('reports a folder moved as its files deleted and created, and a file put back as no change', async () => {
    captures = new ShellCaptures()
    const [workspace, data] = [tempDir(), tempDir()]
    mkdirSync(join(workspace, 'a', 'inner'), { recursive: true })
    writeFileSync(join(workspace, 'a', 'inner', 'x.txt'), 'x\n')
    writeFileSync(join(workspace, 'same.txt'), 'same\n')
    expect(await changesOf(data, workspace, 'mv a b && echo tmp > same.txt && echo same > same.txt')).toEqual(
      {
        changes: [
          { path: 'a/inner/x.txt', previousContent: 'x\n' },
          { path: 'b/inner/x.txt', previousContent: null }
        ]
      }
    )
    // The moved folder is watched under its new name.
    expect(await changesOf(data, workspace, 'echo y > b/inner/x.txt')).toEqual({
      changes: [{ path: 'b/inner/x.txt', previousContent: 'x\n' }]
    })
  })

  it('leaves out what git leaves out, and follows a .gitignore that changes', async () => {
    captures = new ShellCaptures()
    const [workspace, data] = [tempDir(), tempDir()]
    writeFileSync(join(workspace, '.gitignore'), 'build/\n*.log\n!keep.log\n')
    mkdirSync(join(workspace, 'node_modules'))
    mkdirSync(join(workspace, 'nested'))
    sh(join(workspace, 'nested'), 'git init -q')
    expect(
      await changesOf(
        data,
        workspace,
        'mkdir build && echo b > build/out.js && echo l > debug.log && echo k > keep.log && ' +
          'echo d > node_modules/dep.js && echo n > nested/file.txt && echo c > nested/.git/config2'
      )
    ).toEqual({ changes: [{ path: 'keep.log', previousContent: null }] })
    // build/ is no longer ignored: its file belongs to the workspace from now on.
    writeFileSync(join(workspace, '.gitignore'), '*.log\n')
    expect(await changesOf(data, workspace, 'echo b2 > build/out.js')).toEqual({
      changes: [{ path: 'build/out.js', previousContent: 'b\n' }]
    })
  })

  it('records a planted link as a link, never what it points at', async () => {
    captures = new ShellCaptures()
    const [workspace, data, outside] = [tempDir(), tempDir(), tempDir()]
    writeFileSync(join(outside, 'secret.txt'), 'secret\n')
    writeFileSync(join(workspace, 'run.sh'), 'echo hi\n')
    const result = await changesOf(
      data,
      workspace,
      `ln -s ${join(outside, 'secret.txt')} peek && rm run.sh && ln -s ${join(outside, 'secret.txt')} run.sh`
    )
    expect(result).toEqual({
      changes: [
        { path: 'peek', previousContent: null },
        { path: 'run.sh', previousContent: 'echo hi\n' }
      ]
    })
    expect(JSON.stringify(result)).not.toContain('secret\\n')
  })

  it('is not held up by a FIFO the command makes, and lists only real files', async () => {
    captures = new ShellCaptures()
    const [workspace, data] = [tempDir(), tempDir()]
    expect(await changesOf(data, workspace, 'mkfifo pipe && echo x > a.txt')).toEqual({
      changes: [{ path: 'a.txt', previousContent: null }]
    })
  })

  it('keeps no content for a file too large or not text, and says so', async () => {
    captures = new ShellCaptures()
    const [workspace, data] = [tempDir(), tempDir()]
    writeFileSync(join(workspace, 'big.log'), 'x'.repeat(SHELL_CAPTURE_MAX_FILE_BYTES + 1))
    writeFileSync(join(workspace, 'image.bin'), Buffer.from([0, 1, 2, 3]))
    expect(await changesOf(data, workspace, 'echo y >> big.log && printf "\\004" >> image.bin')).toEqual({
      changes: [
        { path: 'big.log', previousContent: null, notKept: 'too_large' },
        { path: 'image.bin', previousContent: null, notKept: 'binary' }
      ]
    })
  })

  it('survives a flood of changes: records the first 200, says so, and stays exact afterwards', async () => {
    // The budget is not what this case is about: a loaded machine may take seconds over 6,000 files.
    captures = new ShellCaptures({ budgetMs: 60_000 })
    const [workspace, data] = [tempDir(), tempDir()]
    writeFileSync(join(workspace, 'before.txt'), 'b\n')
    // 6,000 files in 60 new folders: more events than the mirror trusts, so it walks the tree.
    const flood = await changesOf(
      data,
      workspace,
      'for d in $(seq 1 60); do mkdir f$d; for i in $(seq 1 100); do echo $i > f$d/$i.txt; done; done'
    )
    expect(flood.changes).toHaveLength(200)
    expect(flood.notRecorded).toBe(
      'the command changed 6000 files; only the first 200 were recorded for undo'
    )
    expect(await changesOf(data, workspace, 'rm -r f7 && echo a >> before.txt')).toMatchObject({
      changes: expect.arrayContaining([
        { path: 'before.txt', previousContent: 'b\n' },
        { path: 'f7/100.txt', previousContent: '100\n' }
      ])
    })
    expect((await changesOf(data, workspace, 'true')).changes).toEqual([])
  })

  it("leaves out the chat's own data folder when the workspace holds it (home as workspace)", async () => {
    captures = new ShellCaptures()
    const workspace = tempDir()
    const session = join(workspace, '.config', 'app', 'sessions', 's1')
    mkdirSync(session, { recursive: true })
    writeFileSync(join(session, 'bgexec_1.log'), 'log\n')
    const data = join(session, 'shell-checkpoints')
    expect(
      await changesOf(data, workspace, 'echo x > a.txt && echo more >> .config/app/sessions/s1/bgexec_1.log')
    ).toEqual({
      changes: [{ path: 'a.txt', previousContent: null }]
    })
    // Keeping a.txt's content wrote into the store: that is not a change of the workspace.
    expect(await changesOf(data, workspace, 'true')).toEqual({ changes: [] })
  })

  it('does not capture a workspace with more files than the cap, and says so', async () => {
    captures = new ShellCaptures({ maxFiles: 4 })
    const [workspace, data] = [tempDir(), tempDir()]
    for (let i = 0; i < 5; i++) writeFileSync(join(workspace, `f${i}.txt`), `${i}\n`)
    const first = await captures.start(data, workspace)
    expect(first).toMatchObject({ capture: null, notRecorded: expect.stringContaining('more than 4 files') })
    expect(await captures.start(data, workspace)).toMatchObject({
      capture: null,
      notRecorded: expect.stringContaining('more than 4 files')
    })
  })

  it('falls back to a git snapshot where the workspace cannot be watched', async () => {
    captures = new ShellCaptures()
    const [workspace, data] = [tempDir(), tempDir()]
    writeFileSync(join(workspace, 'a.txt'), 'a\n')
    // The mirror's own watched folder cannot be made (a file is in its place); git still can work.
    const store = join(data, createHash('sha256').update(workspace).digest('hex').slice(0, 16))
    mkdirSync(store)
    writeFileSync(join(store, 'sentinel'), '')
    const started = await captures.start(data, workspace)
    expect(started.capture).not.toBeNull()
    sh(workspace, 'echo b > a.txt')
    expect(await started.capture!.finish()).toEqual({ changes: [{ path: 'a.txt', previousContent: 'a\n' }] })
    // The git snapshot is what recorded it.
    expect(existsSync(join(store, 'index'))).toBe(true)
  })
})
