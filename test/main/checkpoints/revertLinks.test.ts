import { randomBytes } from 'node:crypto'
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { RouteOutput } from '@shared/contracts/define'
import { describe, expect, it } from 'vitest'
import { useTempDirs } from '../helpers/tempDir'
import { callsReply, call, textReply, toolCall, useLoopHarness, type LoopHarness } from '../loop/helpers'
import {
  checkpointsRestoreBefore,
  checkpointsRevertTurn,
  checkpointsTurnDiffs
} from '@shared/contracts/routes/checkpoints.routes'

// A model that can run commands can turn any file or folder of its workspace into a link between
// the turn and the user's "Revert this turn". The revert must then leave the outside alone.
const harness = useLoopHarness()
const tempDir = useTempDirs()

/** Each file's action (and reason), by its path in the workspace. */
function actionsOf(
  h: LoopHarness,
  result: RouteOutput<typeof checkpointsRevertTurn>['result']
): Record<string, string> {
  return Object.fromEntries(
    result.files.map((f) => [relative(h.workspace, f.path), f.reason ? `${f.action}:${f.reason}` : f.action])
  )
}

async function oneTurn(h: LoopHarness) {
  const { sessionId, assistantMessageId } = await h.send('change files', { permissionMode: 'full_access' })
  await h.idle(sessionId)
  return { sessionId, messageId: assistantMessageId }
}

describe('revert never follows a link the model planted', () => {
  it('a file turned into a link to a file outside: the outside file keeps its bytes, the name is reported, the rest is reverted', async () => {
    const outside = tempDir()
    const bashrc = join(outside, '.bashrc')
    const precious = randomBytes(4096)
    writeFileSync(bashrc, precious)
    const h = await harness([
      callsReply(
        toolCall('c1', 'write', { path: 'run.sh', content: 'echo first\n' }),
        toolCall('c2', 'write', { path: 'notes.txt', content: 'changed\n' })
      ),
      callsReply(toolCall('c3', 'write', { path: 'run.sh', content: 'echo second\n' })),
      callsReply(toolCall('c4', 'exec', { command: `ln -sf '${bashrc}' run.sh` })),
      textReply('Done.')
    ])
    writeFileSync(join(h.workspace, 'run.sh'), 'echo mine\n')
    writeFileSync(join(h.workspace, 'notes.txt'), 'original\n')
    const turn = await oneTurn(h)
    expect(lstatSync(join(h.workspace, 'run.sh')).isSymbolicLink()).toBe(true)

    // The turn's diff does not read through the link either.
    const { files: diffs } = await call(h, checkpointsTurnDiffs, turn)
    const runDiff = diffs.find((d) => relative(h.workspace, d.path) === 'run.sh')
    expect(runDiff?.after).toEqual({ state: 'not_followed', content: null })
    expect(JSON.stringify(diffs)).not.toContain(precious.toString('base64').slice(0, 16))

    const { result } = await call(h, checkpointsRevertTurn, turn)
    expect(readFileSync(bashrc).equals(precious)).toBe(true)
    expect(actionsOf(h, result)).toEqual({ 'run.sh': 'skipped:link', 'notes.txt': 'restored' })
    expect(readFileSync(join(h.workspace, 'notes.txt'), 'utf8')).toBe('original\n')
    expect(lstatSync(join(h.workspace, 'run.sh')).isSymbolicLink()).toBe(true)
    // Nothing read through the link reaches the tape either.
    const revert = h.presenters.tape.entry(turn.sessionId, result.revertEntryId)!
    expect(JSON.stringify(revert.payload)).not.toContain(precious.toString('utf8').slice(0, 16))
    expect((revert.payload as { data: { files: unknown } }).data.files).toEqual(result.files)
  })

  it('a folder turned into a link outside: deleting a file the turn created removes nothing there', async () => {
    const outside = tempDir()
    writeFileSync(join(outside, 'made.txt'), 'not yours\n')
    const h = await harness([
      callsReply(toolCall('c1', 'write', { path: 'dir/made.txt', content: 'made by the turn\n' })),
      callsReply(toolCall('c2', 'exec', { command: `mv dir dir.moved && ln -s '${outside}' dir` })),
      textReply('Done.')
    ])
    const turn = await oneTurn(h)

    const { result } = await call(h, checkpointsRevertTurn, turn)
    expect(readFileSync(join(outside, 'made.txt'), 'utf8')).toBe('not yours\n')
    expect(actionsOf(h, result)).toMatchObject({
      'dir/made.txt': 'skipped:link',
      // The shell capture saw the file appear under the new name: that copy is the turn's own.
      'dir.moved/made.txt': 'deleted'
    })
    expect(existsSync(join(h.workspace, 'dir.moved', 'made.txt'))).toBe(false)
  })

  it('a folder turned into a link outside: restoring an edited file writes nothing there, and a missing one is not created there', async () => {
    const outside = tempDir()
    writeFileSync(join(outside, 'app.ini'), 'outside app\n')
    const empty = tempDir()
    const h = await harness([
      callsReply(
        toolCall('c1', 'edit', { path: 'conf/app.ini', old_string: 'port=1', new_string: 'port=2' }),
        toolCall('c2', 'edit', { path: 'keys/list.txt', old_string: 'k1', new_string: 'k2' })
      ),
      callsReply(
        toolCall('c3', 'exec', {
          command: `rm -r conf keys && ln -s '${outside}' conf && ln -s '${empty}' keys`
        })
      ),
      textReply('Done.')
    ])
    mkdirSync(join(h.workspace, 'conf'))
    writeFileSync(join(h.workspace, 'conf', 'app.ini'), 'port=1\n')
    mkdirSync(join(h.workspace, 'keys'))
    writeFileSync(join(h.workspace, 'keys', 'list.txt'), 'k1\n')
    const turn = await oneTurn(h)

    const { result } = await call(h, checkpointsRevertTurn, turn)
    expect(readFileSync(join(outside, 'app.ini'), 'utf8')).toBe('outside app\n')
    expect(readdirSync(empty)).toEqual([])
    expect(actionsOf(h, result)).toMatchObject({
      'conf/app.ini': 'skipped:link',
      'keys/list.txt': 'skipped:link'
    })
  })

  it('a dangling link: restoring does not create the file it points to', async () => {
    const outside = tempDir()
    const planted = join(outside, 'autostart.desktop')
    const h = await harness([
      callsReply(toolCall('c1', 'edit', { path: 'a.txt', old_string: 'one', new_string: 'two' })),
      callsReply(toolCall('c2', 'exec', { command: `rm a.txt && ln -s '${planted}' a.txt` })),
      textReply('Done.')
    ])
    writeFileSync(join(h.workspace, 'a.txt'), 'one\n')
    const turn = await oneTurn(h)

    const { result } = await call(h, checkpointsRevertTurn, turn)
    expect(existsSync(planted)).toBe(false)
    expect(actionsOf(h, result)).toMatchObject({ 'a.txt': 'skipped:link' })
  })

  it('restoring to before a message skips links the same way and still puts back ordinary files', async () => {
    const outside = tempDir()
    const target = join(outside, 'target.txt')
    writeFileSync(target, 'keep me\n')
    const h = await harness([
      callsReply(
        toolCall('c1', 'write', { path: 'x.txt', content: 'x2\n' }),
        toolCall('c2', 'write', { path: 'y.txt', content: 'y2\n' })
      ),
      callsReply(toolCall('c3', 'exec', { command: `ln -sf '${target}' x.txt` })),
      textReply('Done.')
    ])
    writeFileSync(join(h.workspace, 'x.txt'), 'x1\n')
    writeFileSync(join(h.workspace, 'y.txt'), 'y1\n')
    const turn = await oneTurn(h)
    const user = h.presenters.sessions.messages.list(turn.sessionId).messages.find((m) => m.role === 'user')!

    const { result } = await call(h, checkpointsRestoreBefore, {
      sessionId: turn.sessionId,
      messageId: user.id
    })
    expect(readFileSync(target, 'utf8')).toBe('keep me\n')
    expect(readFileSync(join(h.workspace, 'y.txt'), 'utf8')).toBe('y1\n')
    expect(actionsOf(h, result)).toMatchObject({ 'x.txt': 'skipped:link', 'y.txt': 'restored' })
  })

  it('a file turned into a hard link to a file outside: the outside file keeps its content', async () => {
    const outside = tempDir()
    const profile = join(outside, '.profile')
    writeFileSync(profile, 'export SAFE=1\n')
    const h = await harness([
      callsReply(toolCall('c1', 'edit', { path: 'env.sh', old_string: 'one', new_string: 'two' })),
      callsReply(toolCall('c2', 'exec', { command: `rm env.sh && ln '${profile}' env.sh` })),
      textReply('Done.')
    ])
    writeFileSync(join(h.workspace, 'env.sh'), 'one\n')
    const turn = await oneTurn(h)

    const { result } = await call(h, checkpointsRevertTurn, turn)
    expect(readFileSync(profile, 'utf8')).toBe('export SAFE=1\n')
    expect(actionsOf(h, result)).toMatchObject({ 'env.sh': 'skipped:link' })
  })
})
