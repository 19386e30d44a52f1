import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SHELL_CAPTURE_MAX_FILE_BYTES } from '../../../src/main/presenter/toolPresenter/agentTools/shellChanges/limits'
import { callsReply, call, textReply, toolCall, useLoopHarness } from '../loop/helpers'
import {
  checkpointsListTurn,
  checkpointsRestoreBefore,
  checkpointsRevertTurn
} from '@shared/contracts/routes/checkpoints.routes'

const harness = useLoopHarness()
const nameOf = (path: string) => path.split(/[\\/]/).pop()!

describe('checkpoints of shell commands', () => {
  it('records files a command changed beside an edit; reverting the turn restores both', async () => {
    const h = await harness([
      callsReply(
        toolCall('c1', 'edit', { path: 'a.txt', old_string: 'a1', new_string: 'a2' }),
        toolCall('c2', 'exec', { command: 'echo b2 > b.txt && echo made > made.txt' })
      ),
      textReply('Done.')
    ])
    writeFileSync(join(h.workspace, 'a.txt'), 'a1\n')
    writeFileSync(join(h.workspace, 'b.txt'), 'b1\n')
    const { sessionId, assistantMessageId } = await h.send('change files', { permissionMode: 'full_access' })
    await h.idle(sessionId)
    expect(readFileSync(join(h.workspace, 'b.txt'), 'utf8')).toBe('b2\n')

    const turn = { sessionId, messageId: assistantMessageId }
    const { checkpoint } = await call(h, checkpointsListTurn, turn)
    const byName = Object.fromEntries(checkpoint.files.map((f) => [nameOf(f.path), f]))
    expect(Object.keys(byName).sort()).toEqual(['a.txt', 'b.txt', 'made.txt'])
    expect(byName['b.txt']).toMatchObject({ tools: ['exec'], existedBefore: true })
    expect(byName['made.txt']).toMatchObject({ tools: ['exec'], existedBefore: false })

    await call(h, checkpointsRevertTurn, turn)
    expect(readFileSync(join(h.workspace, 'a.txt'), 'utf8')).toBe('a1\n')
    expect(readFileSync(join(h.workspace, 'b.txt'), 'utf8')).toBe('b1\n')
    expect(existsSync(join(h.workspace, 'made.txt'))).toBe(false)
  })

  it('lists a file too large to keep as changed, and a revert leaves it and says so', async () => {
    const h = await harness([
      callsReply(toolCall('c1', 'exec', { command: 'echo more >> big.log && echo s2 > small.txt' })),
      textReply('Done.')
    ])
    writeFileSync(join(h.workspace, 'big.log'), 'x'.repeat(SHELL_CAPTURE_MAX_FILE_BYTES + 10))
    writeFileSync(join(h.workspace, 'small.txt'), 's1\n')
    const { sessionId, assistantMessageId } = await h.send('append', { permissionMode: 'full_access' })
    await h.idle(sessionId)
    const turn = { sessionId, messageId: assistantMessageId }
    const { checkpoint } = await call(h, checkpointsListTurn, turn)
    const big = checkpoint.files.find((f) => nameOf(f.path) === 'big.log')
    expect(big).toMatchObject({ notKept: 'too_large', tools: ['exec'] })

    const { result } = await call(h, checkpointsRevertTurn, turn)
    const actions = Object.fromEntries(result.files.map((f) => [nameOf(f.path), f.action]))
    expect(actions).toEqual({ 'big.log': 'not_kept', 'small.txt': 'restored' })
    expect(readFileSync(join(h.workspace, 'big.log'), 'utf8').endsWith('more\n')).toBe(true)
    expect(readFileSync(join(h.workspace, 'small.txt'), 'utf8')).toBe('s1\n')
  })
})

describe('restoring to before a message', () => {
  it('puts back every file changed from that message on, across turns and shell commands', async () => {
    const h = await harness([
      callsReply(toolCall('c1', 'edit', { path: 'a.txt', old_string: 'a1', new_string: 'a2' })),
      textReply('First done.'),
      callsReply(
        toolCall('c2', 'edit', { path: 'a.txt', old_string: 'a2', new_string: 'a3' }),
        toolCall('c3', 'exec', { command: 'echo b2 > b.txt' })
      ),
      textReply('Second done.')
    ])
    writeFileSync(join(h.workspace, 'a.txt'), 'a1\n')
    writeFileSync(join(h.workspace, 'b.txt'), 'b1\n')
    const first = await h.send('first', { permissionMode: 'full_access' })
    await h.idle(first.sessionId)
    await h.send('second', { sessionId: first.sessionId, permissionMode: 'full_access' })
    await h.idle(first.sessionId)
    expect(readFileSync(join(h.workspace, 'a.txt'), 'utf8')).toBe('a3\n')
    const users = h.presenters.sessions.messages
      .list(first.sessionId)
      .messages.filter((m) => m.role === 'user')
    expect(users).toHaveLength(2)

    // Before the second message: the first turn's edit stays, the second's edit and command go.
    await call(h, checkpointsRestoreBefore, { sessionId: first.sessionId, messageId: users[1].id })
    expect(readFileSync(join(h.workspace, 'a.txt'), 'utf8')).toBe('a2\n')
    expect(readFileSync(join(h.workspace, 'b.txt'), 'utf8')).toBe('b1\n')

    // Before the first: the files as they were before the chat touched them.
    const { result } = await call(h, checkpointsRestoreBefore, {
      sessionId: first.sessionId,
      messageId: users[0].id
    })
    expect(readFileSync(join(h.workspace, 'a.txt'), 'utf8')).toBe('a1\n')
    expect(result.files.find((f) => nameOf(f.path) === 'b.txt')?.action).toBe('unchanged')
    const entry = h.presenters.tape.entry(first.sessionId, result.revertEntryId)!
    expect((entry.payload as { data: { restoreBefore: string } }).data.restoreBefore).toBe(users[0].id)
  })
})
