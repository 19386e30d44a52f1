import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import { sessionsUpdateSettings } from '@shared/contracts/routes/sessions.routes'
import {
  callsReply,
  picked,
  tempDir,
  textReply,
  toolCall,
  toolResults,
  useLoopHarness
} from '../loop/helpers'

const harness = useLoopHarness()

/** Why the host's picker refused a folder: its code and words, however the harness reports them. */
async function pickRefusal(h: Parameters<typeof picked>[0], path: string): Promise<string> {
  const error = (await picked(h, path).then(
    () => ({ message: 'picked' }),
    (e: unknown) => e
  )) as { code?: string; message?: string }
  return `${error.code ?? ''} ${error.message ?? ''}`
}

describe('a chat always has a folder of its own', () => {
  it('gives a chat without a folder its own scratch folder in the data folder, never the host working directory', async () => {
    const h = await harness([
      callsReply(toolCall('w1', 'write', { path: 'notes.txt', content: 'scratch' })),
      textReply('Done.')
    ])
    const { sessionId, assistantMessageId } = await h.send('write a note', { workspaceDir: null })
    await h.idle(sessionId)
    const session = h.presenters.sessions.require(sessionId)
    expect(session.workspaceIsScratch).toBe(true)
    expect(session.workspaceDir.startsWith(join(h.dataDir, 'scratch'))).toBe(true)
    expect(readFileSync(join(session.workspaceDir, 'notes.txt'), 'utf8')).toBe('scratch')
    expect(existsSync(join(process.cwd(), 'notes.txt'))).toBe(false)
    expect(h.presenters.sessions.messages.require(assistantMessageId).status).toBe('sent')
  })

  it('asks before a chat without a folder writes to the host working directory or reads the home folder', async () => {
    const target = join(process.cwd(), `deepchat-probe-${process.pid}.txt`)
    const h = await harness([
      callsReply(
        toolCall('w1', 'write', { path: target, content: 'escape' }),
        toolCall('r1', 'read', { path: '~/.bashrc' })
      ),
      textReply('Tried.')
    ])
    const { sessionId, assistantMessageId } = await h.send('escape', { workspaceDir: null })
    await h.idle(sessionId)
    expect(h.presenters.sessions.messages.require(assistantMessageId).status).toBe('awaiting_interaction')
    const asked = h.presenters.sessions.interactions.list({ sessionId, status: 'pending' })
    expect(asked.map((i) => (i.request.request as { type: string }).type).sort()).toEqual(['read', 'write'])
    expect(existsSync(target)).toBe(false)
  })

  it('uses the default folder from Settings when a new chat names none, and a scratch folder when it asks for none', async () => {
    const h = await harness([textReply('one'), textReply('two')])
    const folder = tempDir()
    await h.router.call(configUpdateSettings, { patch: { defaultWorkspaceDir: (await picked(h, folder))! } })
    const first = await h.send('hi', { workspaceDir: 'omit' })
    await h.idle(first.sessionId)
    expect(h.presenters.sessions.require(first.sessionId)).toMatchObject({
      workspaceDir: folder,
      workspaceIsScratch: false
    })
    const second = await h.send('hi', { workspaceDir: null })
    await h.idle(second.sessionId)
    expect(h.presenters.sessions.require(second.sessionId).workspaceIsScratch).toBe(true)
  })

  it('refuses a default workspace or a chat folder that is missing, a file, relative, or the app data folder', async () => {
    const h = await harness([textReply('ok')])
    const file = join(tempDir(), 'file.txt')
    writeFileSync(file, 'x')
    mkdirSync(join(h.dataDir, 'sessions'), { recursive: true })
    // The picker refuses what is no folder; a typed path is refused whatever it is.
    for (const bad of ['relative/dir', join(tempDir(), 'missing'), file]) {
      expect(await pickRefusal(h, bad)).toMatch(/invalid_folder/)
      await expect(
        h.router.call(configUpdateSettings, { patch: { defaultWorkspaceDir: bad } })
      ).rejects.toMatchObject({ code: 'path_not_picked' })
    }
    // A picked folder that is (in) the data folder is still no workspace.
    for (const bad of [h.dataDir, join(h.dataDir, 'sessions'), join(h.dataDir, 'scratch')]) {
      mkdirSync(bad, { recursive: true })
      await expect(
        h.router.call(configUpdateSettings, { patch: { defaultWorkspaceDir: (await picked(h, bad))! } })
      ).rejects.toMatchObject({ code: 'invalid_workspace' })
    }
    expect(h.presenters.config.getSettings().defaultWorkspaceDir).toBe('')
    const { sessionId } = await h.send('hi', { workspaceDir: null })
    await h.idle(sessionId)
    await expect(
      h.router.call(sessionsUpdateSettings, {
        sessionId,
        patch: { workspaceDir: (await picked(h, h.dataDir))! }
      })
    ).rejects.toMatchObject({
      code: 'invalid_workspace'
    })
    await expect(h.send('again', { workspaceDir: join(h.dataDir, 'sessions') })).rejects.toThrow(
      /invalid_workspace/
    )
  })

  it('refuses a folder it cannot even look at (name too long, a symlink loop) as invalid_folder, not with its errno', async () => {
    const h = await harness([textReply('ok')])
    const loop = join(tempDir(), 'loop')
    symlinkSync(loop, loop)
    for (const bad of [`/${'p'.repeat(4000)}`, join(loop, 'inside')]) {
      expect(await pickRefusal(h, bad)).toMatch(/invalid_folder.*(ENAMETOOLONG|ELOOP)/)
    }
  })

  it('clearing a chat folder puts the chat back in its scratch folder', async () => {
    const h = await harness([textReply('ok')])
    const { sessionId } = await h.send('hi')
    await h.idle(sessionId)
    expect(h.presenters.sessions.require(sessionId).workspaceDir).toBe(h.workspace)
    const { settings: view } = await h.router.call(sessionsUpdateSettings, {
      sessionId,
      patch: { workspaceDir: null }
    })
    expect(view.workspaceIsScratch).toBe(true)
    expect(existsSync(view.workspaceDir)).toBe(true)
  })

  it('gives chats stored without a folder their scratch folder, created when a turn starts', async () => {
    const h = await harness([
      textReply('first'),
      callsReply(toolCall('w1', 'write', { path: 'late.txt', content: 'x' })),
      textReply('ok')
    ])
    const { sessionId } = await h.send('hi')
    await h.idle(sessionId)
    h.presenters.sqlite.db.prepare('UPDATE sessions SET workspace_dir = NULL WHERE id = ?').run(sessionId)
    const legacy = h.presenters.sessions.require(sessionId)
    expect(legacy.workspaceIsScratch).toBe(true)
    expect(existsSync(legacy.workspaceDir)).toBe(false)
    await h.send('write', { sessionId })
    await h.idle(sessionId)
    expect(readFileSync(join(legacy.workspaceDir, 'late.txt'), 'utf8')).toBe('x')
    expect(toolResults(h.bodies()[2])[0].content).toMatch(/Created late\.txt/)
  })

  it('deletes a scratch folder with its chat, but keeps it while a fork still works there', async () => {
    const h = await harness([textReply('a'), textReply('b')])
    const one = await h.send('hi', { workspaceDir: null })
    await h.idle(one.sessionId)
    const scratch = h.presenters.sessions.require(one.sessionId).workspaceDir
    const forked = h.presenters.sessions.forkFromMessage(one.sessionId, one.assistantMessageId)
    expect(forked.workspaceDir).toBe(scratch)
    h.presenters.sessions.purge(one.sessionId)
    expect(existsSync(scratch)).toBe(true)
    h.presenters.sessions.purge(forked.id)
    expect(existsSync(scratch)).toBe(false)
  })
})
