import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFeatureHarness, type FeatureHarness } from './featureHarness'

/** What tape_search and tape_context answer, as the assertions read it. */
type Hits = Array<{ entryId: number; kind: string }>
interface Context {
  matchedEntryIds: number[]
  entries: Array<{ entryId: number }>
}

let h: FeatureHarness
beforeEach(() => {
  h = createFeatureHarness()
})
afterEach(async () => {
  await h.close()
})

function note(text: string, sessionId = h.sessionId): number {
  const [entry] = h.presenters.tape.append(h.presenters.sessions.require(sessionId).tapeId, {
    kind: 'message',
    name: 'message/user',
    payload: { role: 'user', content: { text } }
  })
  return entry.entryId
}

describe('tape tools', () => {
  it('offers tape_search and tape_context to the model, never tape_handoff, diagnostics only when enabled', async () => {
    const names = await h.toolNames()
    expect(names).toContain('tape_search')
    expect(names).toContain('tape_context')
    expect(names).not.toContain('tape_handoff')
    expect(names).not.toContain('tape_info')
    expect(names).not.toContain('tape_anchors')
    const result = await h.call('tape_handoff', { name: 'x', summary: 'y' })
    expect(result.rawData.toolResult.error?.code).toBe('unknown_tool')
  })

  it('tape_search finds an entry of this session only and tape_context reads it with neighbours', async () => {
    note('we chose the pelican migration plan')
    const target = note('the zebra codename is ORCHID-7')
    note('later chatter about lunch')
    const other = h.newSession()
    note('the zebra codename in another session', other)

    const search = await h.call('tape_search', { query: 'zebra codename' })
    expect(search.rawData.isError).toBe(false)
    const hits = h.json<Hits>(search)
    expect(hits.map((x: { entryId: number }) => x.entryId)).toEqual([target])

    const context = await h.call('tape_context', { entryIds: [target], before: 1, after: 1 })
    const body = h.json<Context>(context)
    expect(body.matchedEntryIds).toEqual([target])
    expect(body.entries.map((e: { entryId: number }) => e.entryId)).toEqual([target - 1, target, target + 1])
    expect(JSON.stringify(body.entries)).toContain('ORCHID-7')
  })

  it('tape_search narrows by kind and time range', async () => {
    note('kiwi in a message')
    h.presenters.tape.appendEvent(h.sessionId, 'test/kiwi', { text: 'kiwi in an event' })
    const onlyEvents = h.json<Hits>(await h.call('tape_search', { query: 'kiwi', kinds: ['event'] }))
    expect(onlyEvents).toHaveLength(1)
    expect(onlyEvents[0].kind).toBe('event')
    const future = h.json<Hits>(await h.call('tape_search', { query: 'kiwi', start: Date.now() + 60_000 }))
    expect(future).toEqual([])
  })

  it('rejects bad arguments with a clear error and loses nothing', async () => {
    const empty = await h.call('tape_search', { query: '' })
    expect(empty.rawData.toolResult.error?.code).toBe('invalid_arguments')
    const tooMany = await h.call('tape_search', { query: 'x', limit: 51 })
    expect(tooMany.rawData.toolResult.error?.code).toBe('invalid_arguments')
    const badDate = await h.call('tape_search', { query: 'x', start: 'yesterday' })
    expect(badDate.rawData.toolResult.error?.code).toBe('invalid_arguments')
    const reversed = await h.call('tape_search', { query: 'x', start: 2000, end: 1000 })
    expect(reversed.rawData.toolResult.error?.code).toBe('invalid_range')
    const ids = await h.call('tape_context', { entryIds: Array.from({ length: 21 }, (_, i) => i + 1) })
    expect(ids.rawData.toolResult.error?.code).toBe('invalid_arguments')
    const missing = await h.call('tape_context', { entryIds: [9999] })
    expect(missing.rawData.isError).toBe(true)
    expect(missing.rawData.toolResult.error?.code).toBe('not_found')
    // The session still works afterwards.
    note('still searchable')
    expect(h.json<Hits>(await h.call('tape_search', { query: 'still searchable' }))).toHaveLength(1)
  })

  it('diagnostic tools answer once the session enables them; tape_handoff runs only from the runtime', async () => {
    const session = h.newSession({ permissionMode: 'full_access' })
    h.presenters.tape.appendAnchor(session, 'handoff/first', { summary: 'one' })
    expect((await h.call('tape_anchors', {}, session)).rawData.toolResult.error?.code).toBe('unknown_tool')
    await h.call('skill_view', { name: 'deepchat-settings' }, session)
    expect(
      (await h.call('deepchat_settings_set_tools', { enable: ['tape_info', 'tape_anchors'] }, session))
        .rawData.isError
    ).toBe(false)
    const anchors = h.json<Array<{ name: string }>>(await h.call('tape_anchors', { limit: 5 }, session))
    expect(anchors.map((a: { name: string }) => a.name)).toEqual(['session/start', 'handoff/first'])
    const info = h.json(await h.call('tape_info', {}, session))
    expect(info).toMatchObject({ tapeId: session, anchors: 2, lastAnchor: { name: 'handoff/first' } })
    expect((await h.call('tape_anchors', { limit: 51 }, session)).rawData.toolResult.error?.code).toBe(
      'invalid_arguments'
    )
    // Runtime-only: the app runs it; the next context starts after the anchor.
    const ran = await h.presenters.tools.runRuntimeTool(
      'tape_handoff',
      { name: 'checkpoint', summary: 'We chose plan B.' },
      h.ctx()
    )
    expect(ran).toMatchObject({ ok: true, data: { name: 'handoff/checkpoint' } })
    const anchor = h.presenters.tape.entry(h.sessionId, (ran.data as { entryId: number }).entryId)!
    expect(anchor).toMatchObject({ kind: 'anchor', name: 'handoff/checkpoint' })
    expect(JSON.stringify(anchor.payload)).toContain('We chose plan B.')
    await expect(
      h.presenters.tools.runRuntimeTool('tape_handoff', { name: 'x', extra: 1 }, h.ctx())
    ).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(
      h.presenters.tools.runRuntimeTool('tape_search', { query: 'x' }, h.ctx())
    ).rejects.toMatchObject({ code: 'not_found' })
    const manager = h.presenters.tools.agentTools
    const handoff = manager.get('tape_handoff')!
    expect(handoff.exposure).toBe('runtime')
    expect(manager.catalog().map((t) => t.name)).not.toContain('tape_handoff')
    expect(manager.catalog().map((t) => t.name)).toContain('tape_info')
  })
})
