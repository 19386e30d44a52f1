import { afterEach, describe, expect, it } from 'vitest'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createRouter } from '../../../src/main/routes'
import {
  sessionsCreate,
  sessionsFork,
  sessionsGet,
  sessionsList,
  sessionsListInteractions,
  sessionsPin,
  sessionsPurge,
  sessionsRename,
  sessionsSearchHistory
} from '@shared/contracts/routes/sessions.routes'
import { chatGetMessages } from '@shared/contracts/routes/chat.routes'
import {
  tapeAnchors,
  tapeContext,
  tapeEntries,
  tapeForks,
  tapeInfo,
  tapeSearch
} from '@shared/contracts/routes/tape.routes'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()

describe('sessions.* and tape.* routes', () => {
  let presenters: Presenters | undefined
  afterEach(async () => {
    await presenters?.dispose()
    presenters = undefined
  })

  function boot() {
    presenters = createPresenters(createNodePlatform({ dataDir: tempDir(), log: () => {} }), {
      log: () => {}
    })
    const events: string[] = []
    presenters.events.subscribe((name) => events.push(name))
    return { router: createRouter(presenters), presenters, events }
  }

  it('drives a session through the bridge with validated input and output', async () => {
    const { router, presenters: p, events } = boot()
    const { session } = await router.call(sessionsCreate, { session: { title: 'Bridge' } })
    expect(events).toContain('sessions.list.updated')
    p.sessions.messages.appendUserMessage(session.id, { text: 'where is the tokenizer?' })
    const assistant = p.sessions.messages.createAssistantMessage(session.id)
    p.sessions.messages.finalizeAssistantMessage(assistant.id, {
      status: 'sent',
      blocks: [{ id: 'c', kind: 'content', status: 'success', text: 'In src/tokenizer.ts' }]
    })

    expect(
      (await router.call(sessionsRename, { sessionId: session.id, title: 'Renamed' })).session.title
    ).toBe('Renamed')
    expect((await router.call(sessionsPin, { sessionId: session.id, pinned: true })).session.pinned).toBe(
      true
    )
    expect((await router.call(sessionsList, {})).sessions.map((s) => s.id)).toEqual([session.id])
    expect((await router.call(sessionsGet, { sessionId: session.id })).children).toEqual([])
    const { messages } = await router.call(chatGetMessages, { sessionId: session.id })
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant'])
    expect((await router.call(sessionsListInteractions, { sessionId: session.id })).interactions).toEqual([])

    const { hits } = await router.call(sessionsSearchHistory, { query: 'tokenizer' })
    expect(hits.map((h) => h.sessionTitle)).toEqual(['Renamed', 'Renamed'])
    const tapeHits = await router.call(tapeSearch, {
      tapeId: session.tapeId,
      query: 'src',
      options: { kinds: ['message'] }
    })
    expect(tapeHits.hits).toHaveLength(1)
    const context = await router.call(tapeContext, {
      tapeId: session.tapeId,
      entryIds: [tapeHits.hits[0].entryId]
    })
    expect(context.entries.some((e) => e.evidence.text.includes('In src/tokenizer.ts'))).toBe(true)
    expect((await router.call(tapeInfo, { tapeId: session.tapeId })).info.entries).toBe(3)
    expect((await router.call(tapeAnchors, { tapeId: session.tapeId })).anchors.map((a) => a.name)).toEqual([
      'session/start'
    ])
    expect(
      (await router.call(tapeEntries, { tapeId: session.tapeId, afterEntryId: 1, limit: 1 })).entries[0]
        .entryId
    ).toBe(2)
    expect((await router.call(tapeForks, { tapeId: session.tapeId })).forks).toEqual([])

    const fork = await router.call(sessionsFork, { sessionId: session.id, messageId: assistant.id })
    expect(fork.session.title).toBe('Renamed (fork)')
    const purged = await router.call(sessionsPurge, { sessionId: session.id })
    expect(purged.purgedSessionIds).toEqual([session.id])
  })

  it('answers bad input and unknown ids with clear error codes', async () => {
    const { router } = boot()
    await expect(router.call(sessionsGet, { sessionId: 'nope' })).rejects.toMatchObject({
      code: 'session_not_found'
    })
    await expect(router.call(sessionsRename, { sessionId: 'x', title: '' })).rejects.toMatchObject({
      code: 'invalid_input'
    })
    await expect(router.call(tapeInfo, { tapeId: 'nope' })).rejects.toMatchObject({ code: 'tape_not_found' })
    await expect(router.call(tapeSearch, { tapeId: 'nope', query: 'x' })).rejects.toMatchObject({
      code: 'tape_not_found'
    })
    await expect(
      router.call(sessionsSearchHistory, { query: 'x', start: 'last week' as never })
    ).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(router.call(tapeContext, { tapeId: 't', entryIds: [] })).rejects.toMatchObject({
      code: 'invalid_input'
    })
  })

  it('searches history for a query holding a NUL byte instead of answering SQLITE_ERROR', async () => {
    const { router, presenters: p } = boot()
    const { session } = await router.call(sessionsCreate, { session: { title: 'Tokens' } })
    p.sessions.messages.appendUserMessage(session.id, { text: 'where is the tokenizer module?' })
    const { hits } = await router.call(sessionsSearchHistory, { query: 'tokenizer\0module' })
    expect(hits.map((h) => h.sessionId)).toEqual([session.id])
    await expect(router.call(sessionsSearchHistory, { query: '\0' })).rejects.toMatchObject({
      code: 'invalid_query'
    })
  })
})
