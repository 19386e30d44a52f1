import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PREVIEW_MAX_BYTES } from '../../../src/main/presenter/checkpoints/writePreview'
import { callsReply, call, tempDir, textReply, toolCall, useLoopHarness } from '../loop/helpers'
import { chatRespondToolInteraction } from '@shared/contracts/routes/chat.routes'
import { checkpointsPreviewWrite } from '@shared/contracts/routes/checkpoints.routes'

const harness = useLoopHarness()

/** Starts a turn whose one call waits for approval; returns the pending interaction. */
async function pendingWrite(h: Awaited<ReturnType<typeof harness>>) {
  const { sessionId } = await h.send('change a file')
  await h.idle(sessionId)
  const [pending] = h.presenters.sessions.interactions.list({ sessionId, status: 'pending' })
  expect(pending?.kind).toBe('permission')
  return { sessionId, interactionId: pending.id }
}

describe('previewing a pending write', () => {
  it('shows the current content of a file outside the workspace that the write would replace', async () => {
    const outside = tempDir()
    const target = join(outside, 'notes.txt')
    writeFileSync(target, 'old line\n')
    const h = await harness([callsReply(toolCall('w1', 'write', { path: target, content: 'new line\n' }))])
    const ids = await pendingWrite(h)
    const { files } = await call(h, checkpointsPreviewWrite, ids)
    expect(files).toEqual([{ path: target, status: 'shown', content: 'old line\n', size: 9 }])
  })

  it('says a new file is missing, and shows a protected file inside the workspace (read is free there)', async () => {
    const h = await harness([
      callsReply(toolCall('e1', 'edit', { path: '.vscode/tasks.json', old_string: 'a', new_string: 'b' }))
    ])
    mkdirSync(join(h.workspace, '.vscode'))
    writeFileSync(join(h.workspace, '.vscode', 'tasks.json'), '{"a": 1}')
    const ids = await pendingWrite(h)
    const { files } = await call(h, checkpointsPreviewWrite, ids)
    expect(files).toHaveLength(1)
    expect(files[0]).toMatchObject({ status: 'shown', content: '{"a": 1}' })

    const outside = tempDir()
    const h2 = await harness([
      callsReply(toolCall('w1', 'write', { path: join(outside, 'fresh.txt'), content: 'x' }))
    ])
    const fresh = await pendingWrite(h2)
    expect((await call(h2, checkpointsPreviewWrite, fresh)).files).toEqual([
      { path: join(outside, 'fresh.txt'), status: 'missing', content: null }
    ])
  })

  it('never shows a file in the app data folder, and leaves large or binary files out', async () => {
    let inData = ''
    // The data folder is only known once the harness exists: the script reads it per request.
    const h = await harness((_request, index) =>
      index === 0
        ? callsReply(toolCall('w1', 'write', { path: inData, content: 'overwrite' }))
        : textReply('ok')
    )
    inData = join(h.dataDir, 'deepchat.db')
    const ids = await pendingWrite(h)
    const { files } = await call(h, checkpointsPreviewWrite, ids)
    expect(files).toEqual([{ path: inData, status: 'hidden', content: null }])

    const outside = tempDir()
    writeFileSync(join(outside, 'big.txt'), 'x'.repeat(PREVIEW_MAX_BYTES + 1))
    writeFileSync(join(outside, 'blob.bin'), Buffer.from([1, 0, 2]))
    const h2 = await harness([
      callsReply(
        toolCall('w1', 'write', { path: join(outside, 'big.txt'), content: 'y' }),
        toolCall('w2', 'write', { path: join(outside, 'blob.bin'), content: 'z' })
      )
    ])
    const { sessionId } = await h2.send('two writes')
    await h2.idle(sessionId)
    const pending = h2.presenters.sessions.interactions.list({ sessionId, status: 'pending' })
    const statuses = await Promise.all(
      pending.map(
        async (p) =>
          (await call(h2, checkpointsPreviewWrite, { sessionId, interactionId: p.id })).files[0].status
      )
    )
    expect(statuses.sort()).toEqual(['binary', 'too_large'])
  })

  it('refuses an interaction of another session and one already answered', async () => {
    const outside = tempDir()
    const h = await harness([
      callsReply(toolCall('w1', 'write', { path: join(outside, 'a.txt'), content: 'a' })),
      textReply('done')
    ])
    const ids = await pendingWrite(h)
    const other = h.presenters.sessions.create({})
    await expect(
      call(h, checkpointsPreviewWrite, { sessionId: other.id, interactionId: ids.interactionId })
    ).rejects.toMatchObject({ code: 'not_found' })
    const [pending] = h.presenters.sessions.interactions.list({ sessionId: ids.sessionId, status: 'pending' })
    await call(h, chatRespondToolInteraction, {
      sessionId: ids.sessionId,
      messageId: pending.messageId,
      interactionId: ids.interactionId,
      response: { kind: 'permission', decision: 'deny' }
    })
    await expect(call(h, checkpointsPreviewWrite, ids)).rejects.toMatchObject({
      code: 'interaction_not_pending'
    })
  })
})
