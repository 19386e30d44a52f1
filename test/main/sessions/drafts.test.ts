import { afterEach, describe, expect, it } from 'vitest'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createRouter } from '../../../src/main/routes'
import { draftsGet, draftsSave } from '@shared/contracts/routes/drafts.routes'
import { sessionsPurge } from '@shared/contracts/routes/sessions.routes'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()

describe('drafts.* routes', () => {
  const running: Presenters[] = []
  afterEach(async () => {
    for (const p of running.splice(0)) await p.dispose()
  })

  function boot(dataDir: string) {
    const presenters = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
    running.push(presenters)
    return { presenters, router: createRouter(presenters) }
  }

  it('keeps the newest draft when two pages of a chat deliver their saves out of order', async () => {
    const { presenters, router } = boot(tempDir())
    const chat = presenters.sessions.create({ title: 'A' })
    const save = (text: string, typedAt: number) =>
      router.call(draftsSave, { sessionId: chat.id, text, attachments: [], typedAt })
    const stored = async () => (await router.call(draftsGet, { sessionId: chat.id })).draft?.text ?? null
    await save('half a thought', 2_000)
    // The empty composer of a page left earlier arrives late: it does not erase the newer text.
    expect(await save('', 1_000)).toEqual({ saved: false })
    expect(await stored()).toBe('half a thought')
    expect(await save('older words', 1_500)).toEqual({ saved: false })
    expect(await stored()).toBe('half a thought')
    // Emptied later: gone, and an older save cannot bring it back.
    await save('', 3_000)
    expect(await stored()).toBeNull()
    await save('half a thought', 2_500)
    expect(await stored()).toBeNull()
    await save('new words', 3_000)
    expect(await stored()).toBe('new words')
  })

  it("keeps each chat's draft and the new-chat page's apart, across a restart", async () => {
    const dataDir = tempDir()
    const first = boot(dataDir)
    const a = first.presenters.sessions.create({ title: 'A' })
    const b = first.presenters.sessions.create({ title: 'B' })
    const file = await first.presenters.attachments.addBytes('notes.txt', 'text/plain', Buffer.from('hello'))
    await first.router.call(draftsSave, {
      sessionId: a.id,
      text: 'half a thought for A',
      attachments: [{ sha256: file.sha256, name: 'notes.txt' }]
    })
    await first.router.call(draftsSave, { sessionId: b.id, text: 'for B', attachments: [] })
    await first.router.call(draftsSave, {
      sessionId: null,
      text: 'a new chat',
      attachments: [],
      assistantId: 'writer'
    })
    await first.presenters.dispose()
    running.splice(0)

    const second = boot(dataDir)
    expect((await second.router.call(draftsGet, { sessionId: a.id })).draft).toEqual({
      text: 'half a thought for A',
      attachments: [expect.objectContaining({ sha256: file.sha256, name: 'notes.txt', size: 5 })],
      assistantId: null
    })
    expect((await second.router.call(draftsGet, { sessionId: b.id })).draft?.text).toBe('for B')
    expect((await second.router.call(draftsGet, { sessionId: null })).draft).toEqual({
      text: 'a new chat',
      attachments: [],
      assistantId: 'writer'
    })
  })

  it('forgets a draft emptied by a send and the draft of a deleted chat', async () => {
    const { presenters, router } = boot(tempDir())
    const a = presenters.sessions.create({ title: 'A' })
    await router.call(draftsSave, { sessionId: a.id, text: 'sent soon', attachments: [] })
    expect((await router.call(draftsSave, { sessionId: a.id, text: '', attachments: [] })).saved).toBe(false)
    expect((await router.call(draftsGet, { sessionId: a.id })).draft).toBeNull()

    await router.call(draftsSave, { sessionId: a.id, text: 'never sent', attachments: [] })
    await router.call(sessionsPurge, { sessionId: a.id })
    const left = presenters.sqlite.db.prepare('SELECT COUNT(*) AS n FROM composer_drafts').get() as {
      n: number
    }
    expect(left.n).toBe(0)
  })

  it('refuses a draft for a chat that does not exist, and drops files the store does not have', async () => {
    const { presenters, router } = boot(tempDir())
    await expect(
      router.call(draftsSave, { sessionId: 'no-such-chat', text: 'x', attachments: [] })
    ).rejects.toMatchObject({ code: 'session_not_found' })
    const a = presenters.sessions.create({ title: 'A' })
    await router.call(draftsSave, {
      sessionId: a.id,
      text: 'text stays',
      attachments: [{ sha256: 'a'.repeat(64), name: 'gone.pdf' }]
    })
    expect((await router.call(draftsGet, { sessionId: a.id })).draft).toEqual({
      text: 'text stays',
      attachments: [],
      assistantId: null
    })
  })
})
