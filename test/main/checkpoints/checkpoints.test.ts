/* eslint-disable @typescript-eslint/no-explicit-any -- route outputs are checked by shape */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { callsReply, route, textReply, toolCall, useLoopHarness } from '../loop/helpers'

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

    const { checkpoint } = await route(h, 'checkpoints.listTurn', {
      sessionId,
      messageId: assistantMessageId
    })
    const byPath = Object.fromEntries(checkpoint.files.map((f: any) => [f.path.split(/[\\/]/).pop(), f]))
    expect(byPath['notes.md']).toMatchObject({ existedBefore: true, edits: 2, tools: ['edit'] })
    expect(byPath['created.txt']).toMatchObject({ existedBefore: false, edits: 1, tools: ['write'] })
    expect(checkpoint.revertEntryIds).toEqual([])

    const { result } = await route(h, 'checkpoints.revertTurn', { sessionId, messageId: assistantMessageId })
    expect(readFileSync(join(h.workspace, 'notes.md'), 'utf8')).toBe('line one\nalpha\nline three\n')
    expect(existsSync(join(h.workspace, 'new', 'created.txt'))).toBe(false)
    expect(result.files.map((f: any) => f.action).sort()).toEqual(['deleted', 'restored'])

    const revert = h.presenters.tape.entry(sessionId, result.revertEntryId)!
    expect(revert.name).toBe('file/revert')
    const data = (revert.payload as any).data
    expect(data.messageId).toBe(assistantMessageId)
    // The content the revert replaced is kept, so the revert itself can be undone.
    expect(data.replaced.find((r: any) => r.path.endsWith('notes.md')).contentBeforeRevert).toBe(
      'line one\ngamma\nline three\n'
    )
    const after = await route(h, 'checkpoints.listTurn', { sessionId, messageId: assistantMessageId })
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

    const listed = await route(h, 'checkpoints.listTurn', {
      sessionId: first.sessionId,
      messageId: second.assistantMessageId
    })
    expect(listed.checkpoint.files).toEqual([])
    await expect(
      route(h, 'checkpoints.revertTurn', { sessionId: first.sessionId, messageId: second.assistantMessageId })
    ).rejects.toMatchObject({ code: 'nothing_to_revert' })
    await expect(
      route(h, 'checkpoints.listTurn', { sessionId: first.sessionId, messageId: 'missing' })
    ).rejects.toMatchObject({ code: 'message_not_found' })
    const other = h.presenters.sessions.create({})
    await expect(
      route(h, 'checkpoints.listTurn', { sessionId: other.id, messageId: first.assistantMessageId })
    ).rejects.toMatchObject({ code: 'not_found' })
    expect(readFileSync(join(h.workspace, 'a.txt'), 'utf8')).toBe('one')

    // A later turn writes the same file: the first turn's checkpoint says so.
    expect(
      (
        await route(h, 'checkpoints.listTurn', {
          sessionId: first.sessionId,
          messageId: first.assistantMessageId
        })
      ).checkpoint.files[0].changedLater
    ).toBe(false)
    const third = await h.send('write a again', { sessionId: first.sessionId })
    await h.idle(first.sessionId)
    const firstTurn = await route(h, 'checkpoints.listTurn', {
      sessionId: first.sessionId,
      messageId: first.assistantMessageId
    })
    expect(firstTurn.checkpoint.files[0]).toMatchObject({ edits: 1, changedLater: true })
    const thirdTurn = await route(h, 'checkpoints.listTurn', {
      sessionId: first.sessionId,
      messageId: third.assistantMessageId
    })
    expect(thirdTurn.checkpoint.files[0]).toMatchObject({ existedBefore: true, changedLater: false })
  })
})
