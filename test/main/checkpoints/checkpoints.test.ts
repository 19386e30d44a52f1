import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { callsReply, call, textReply, toolCall, useLoopHarness } from '../loop/helpers'
import { checkpointsListTurn, checkpointsRevertTurn } from '@shared/contracts/routes/checkpoints.routes'

const harness = useLoopHarness()

describe('checkpoints', () => {
  it('revert restores a file edited twice in one turn (and deletes one the turn created); the revert is on the tape', async () => {
    const h = await harness([
      callsReply(toolCall('c1', 'edit', { path: 'notes.md', old_string: 'alpha', new_string: 'beta' })),
      callsReply(
        toolCall('c2', 'edit', { path: 'notes.md', old_string: 'beta', new_string: 'gamma' }),
        toolCall('c3', 'write', { path: 'new/created.txt', content: 'fresh' })
      ),
      textReply('Done.')
    ])
    writeFileSync(join(h.workspace, 'notes.md'), 'line one\nalpha\nline three\n')
    const { sessionId, assistantMessageId } = await h.send('edit my notes', { permissionMode: 'full_access' })
    await h.idle(sessionId)
    expect(readFileSync(join(h.workspace, 'notes.md'), 'utf8')).toBe('line one\ngamma\nline three\n')
    expect(readFileSync(join(h.workspace, 'new', 'created.txt'), 'utf8')).toBe('fresh')

    // Every write/edit put the previous content on the session tape.
    const snapshots = h.presenters.tape.entries(sessionId).filter((e) => e.name === 'file/snapshot')
    expect(snapshots).toHaveLength(3)

    const { checkpoint } = await call(h, checkpointsListTurn, {
      sessionId,
      messageId: assistantMessageId
    })
    const byPath = Object.fromEntries(checkpoint.files.map((f) => [f.path.split(/[\\/]/).pop(), f]))
    expect(byPath['notes.md']).toMatchObject({ existedBefore: true, edits: 2, tools: ['edit'] })
    expect(byPath['created.txt']).toMatchObject({ existedBefore: false, edits: 1, tools: ['write'] })
    expect(checkpoint.revertEntryIds).toEqual([])

    const { result } = await call(h, checkpointsRevertTurn, { sessionId, messageId: assistantMessageId })
    expect(readFileSync(join(h.workspace, 'notes.md'), 'utf8')).toBe('line one\nalpha\nline three\n')
    expect(existsSync(join(h.workspace, 'new', 'created.txt'))).toBe(false)
    expect(result.files.map((f) => f.action).sort()).toEqual(['deleted', 'restored'])

    const revert = h.presenters.tape.entry(sessionId, result.revertEntryId)!
    expect(revert.name).toBe('file/revert')
    const { data } = revert.payload as {
      data: { messageId: string; replaced: Array<{ path: string; contentBeforeRevert: string | null }> }
    }
    expect(data.messageId).toBe(assistantMessageId)
    // The content the revert replaced is kept, so the revert itself can be undone.
    expect(data.replaced.find((r) => r.path.endsWith('notes.md'))?.contentBeforeRevert).toBe(
      'line one\ngamma\nline three\n'
    )
    const after = await call(h, checkpointsListTurn, { sessionId, messageId: assistantMessageId })
    expect(after.checkpoint.revertEntryIds).toEqual([result.revertEntryId])
  })

  it('lists only the turn asked for; errors for unknown turns and turns without changes', async () => {
    const h = await harness([
      callsReply(toolCall('c1', 'write', { path: 'a.txt', content: 'one' })),
      textReply('ok'),
      textReply('nothing changed'),
      callsReply(toolCall('c9', 'write', { path: 'a.txt', content: 'two' })),
      textReply('changed again')
    ])
    const first = await h.send('write a', { permissionMode: 'full_access' })
    await h.idle(first.sessionId)
    const second = await h.send('say hi', { sessionId: first.sessionId })
    await h.idle(first.sessionId)

    const listed = await call(h, checkpointsListTurn, {
      sessionId: first.sessionId,
      messageId: second.assistantMessageId
    })
    expect(listed.checkpoint.files).toEqual([])
    await expect(
      call(h, checkpointsRevertTurn, { sessionId: first.sessionId, messageId: second.assistantMessageId })
    ).rejects.toMatchObject({ code: 'nothing_to_revert' })
    await expect(
      call(h, checkpointsListTurn, { sessionId: first.sessionId, messageId: 'missing' })
    ).rejects.toMatchObject({ code: 'message_not_found' })
    const other = h.presenters.sessions.create({})
    await expect(
      call(h, checkpointsListTurn, { sessionId: other.id, messageId: first.assistantMessageId })
    ).rejects.toMatchObject({ code: 'not_found' })
    expect(readFileSync(join(h.workspace, 'a.txt'), 'utf8')).toBe('one')

    // A later turn writes the same file: the first turn's checkpoint says so.
    expect(
      (
        await call(h, checkpointsListTurn, {
          sessionId: first.sessionId,
          messageId: first.assistantMessageId
        })
      ).checkpoint.files[0].changedLater
    ).toBe(false)
    const third = await h.send('write a again', { sessionId: first.sessionId })
    await h.idle(first.sessionId)
    const firstTurn = await call(h, checkpointsListTurn, {
      sessionId: first.sessionId,
      messageId: first.assistantMessageId
    })
    expect(firstTurn.checkpoint.files[0]).toMatchObject({ edits: 1, changedLater: true })
    const thirdTurn = await call(h, checkpointsListTurn, {
      sessionId: first.sessionId,
      messageId: third.assistantMessageId
    })
    expect(thirdTurn.checkpoint.files[0]).toMatchObject({ existedBefore: true, changedLater: false })
  })
})
