import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SHELL_CAPTURE_MAX_FILE_BYTES } from '../../../src/main/presenter/toolPresenter/agentTools/shellChanges/limits'
import { callsReply, call, textReply, toolCall, useLoopHarness } from '../loop/helpers'
import { checkpointsRevertTurn, checkpointsTurnDiffs } from '@shared/contracts/routes/checkpoints.routes'

const harness = useLoopHarness()
const nameOf = (path: string) => path.split(/[\\/]/).pop()!
const byName = <F extends { path: string }>(files: F[]) =>
  Object.fromEntries(files.map((f) => [nameOf(f.path), f]))

describe('checkpoints.turnDiffs', () => {
  it("gives each changed file's content before the turn and after it, shell changes included", async () => {
    const h = await harness([
      callsReply(toolCall('c1', 'edit', { path: 'a.txt', old_string: 'a1', new_string: 'a2' })),
      callsReply(
        toolCall('c2', 'edit', { path: 'a.txt', old_string: 'a2', new_string: 'a3' }),
        toolCall('c3', 'exec', { command: 'echo b2 > b.txt && echo made > made.txt' })
      ),
      textReply('Done.')
    ])
    writeFileSync(join(h.workspace, 'a.txt'), 'a1\n')
    writeFileSync(join(h.workspace, 'b.txt'), 'b1\n')
    const { sessionId, assistantMessageId } = await h.send('change files', { permissionMode: 'full_access' })
    await h.idle(sessionId)

    const { files } = await call(h, checkpointsTurnDiffs, { sessionId, messageId: assistantMessageId })
    const diffs = byName(files)
    expect(Object.keys(diffs).sort()).toEqual(['a.txt', 'b.txt', 'made.txt'])
    // Two edits in one turn: one diff from before the first to after the last.
    expect(diffs['a.txt']).toMatchObject({
      before: { state: 'text', content: 'a1\n' },
      after: { state: 'text', content: 'a3\n' }
    })
    expect(diffs['b.txt'].before.content).toBe('b1\n')
    expect(diffs['b.txt'].after.content).toBe('b2\n')
    expect(diffs['made.txt']).toMatchObject({
      before: { state: 'absent', content: null },
      after: { state: 'text', content: 'made\n' }
    })
  })

  it('keeps showing what the turn wrote after a later turn and a revert changed the file', async () => {
    const h = await harness([
      callsReply(toolCall('c1', 'write', { path: 'n.txt', content: 'first' })),
      textReply('ok'),
      callsReply(toolCall('c2', 'write', { path: 'n.txt', content: 'second' })),
      textReply('ok again')
    ])
    const first = await h.send('write', { permissionMode: 'full_access' })
    await h.idle(first.sessionId)
    const second = await h.send('write again', { sessionId: first.sessionId })
    await h.idle(first.sessionId)
    const turn1 = { sessionId: first.sessionId, messageId: first.assistantMessageId }
    const turn2 = { sessionId: first.sessionId, messageId: second.assistantMessageId }

    const [one] = (await call(h, checkpointsTurnDiffs, turn1)).files
    expect(one.before).toEqual({ state: 'absent', content: null })
    expect(one.after).toEqual({ state: 'text', content: 'first' })

    await call(h, checkpointsRevertTurn, turn2)
    const [two] = (await call(h, checkpointsTurnDiffs, turn2)).files
    expect(two.before.content).toBe('first')
    expect(two.after.content).toBe('second')
  })

  it('says a file was too large to keep instead of showing a diff', async () => {
    const h = await harness([
      callsReply(toolCall('c1', 'exec', { command: 'echo more >> big.log' })),
      textReply('Done.')
    ])
    writeFileSync(join(h.workspace, 'big.log'), 'x'.repeat(SHELL_CAPTURE_MAX_FILE_BYTES + 10))
    const { sessionId, assistantMessageId } = await h.send('append', { permissionMode: 'full_access' })
    await h.idle(sessionId)
    const { files } = await call(h, checkpointsTurnDiffs, { sessionId, messageId: assistantMessageId })
    expect(files).toHaveLength(1)
    expect(files[0].before).toEqual({ state: 'too_large', content: null })
    expect(files[0].after).toEqual({ state: 'too_large', content: null })
  })

  it('refuses a message of another session', async () => {
    const h = await harness([textReply('hi')])
    const { sessionId, assistantMessageId } = await h.send('hello')
    await h.idle(sessionId)
    const other = h.presenters.sessions.create({})
    await expect(
      call(h, checkpointsTurnDiffs, { sessionId: other.id, messageId: assistantMessageId })
    ).rejects.toMatchObject({ code: 'not_found' })
  })
})
