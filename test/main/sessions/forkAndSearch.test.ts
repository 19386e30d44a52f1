import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSessionFixture, type SessionFixture } from './helpers'

describe('forking a session from a message, and history search', () => {
  let fx: SessionFixture
  let clock = 0
  beforeEach(() => {
    clock = Date.parse('2026-03-01T00:00:00Z')
    fx = openSessionFixture({ now: () => (clock += 1000) })
  })
  afterEach(() => fx.close())

  function conversation(title: string, turns: [string, string][]) {
    const session = fx.sessions.create({ title })
    const ids: string[] = []
    for (const [question, answer] of turns) {
      ids.push(fx.sessions.messages.appendUserMessage(session.id, { text: question }).id)
      const a = fx.sessions.messages.createAssistantMessage(session.id)
      fx.sessions.messages.finalizeAssistantMessage(a.id, {
        status: 'sent',
        blocks: [{ id: 'c', kind: 'content', status: 'success', text: answer }]
      })
      ids.push(a.id)
    }
    return { session, ids }
  }

  it('forks with the history up to the chosen message, pointing back with provenance', () => {
    const { session, ids } = conversation('Trip', [
      ['plan a trip to Kyoto', 'Day 1: Fushimi Inari'],
      ['add Nara', 'Day 2: Nara deer park'],
      ['add Osaka', 'Day 3: Dotonbori']
    ])
    fx.tape.handoff(session.tapeId, { summary: 'Kyoto trip planned' }) // after the fork point: must not be copied
    const fork = fx.sessions.forkFromMessage(session.id, ids[3])
    expect(fork).toMatchObject({ kind: 'regular', title: 'Trip (fork)' })
    const messages = fx.sessions.messages.list(fork.id).messages
    expect(messages.map((m) => [m.orderSeq, m.role, m.content?.text ?? m.blocks[0]?.text])).toEqual([
      [1, 'user', 'plan a trip to Kyoto'],
      [2, 'assistant', 'Day 1: Fushimi Inari'],
      [3, 'user', 'add Nara'],
      [4, 'assistant', 'Day 2: Nara deer park']
    ])
    expect(messages.every((m) => !ids.includes(m.id))).toBe(true)
    const entries = fx.tape.entries(fork.tapeId)
    expect(entries.map((e) => e.name)).toEqual([
      'session/start',
      'session/forked',
      'message/user',
      'message/assistant',
      'message/user',
      'message/assistant'
    ])
    expect(entries[5].meta.forkedFrom).toEqual({ tapeId: session.tapeId, entryId: 5 })
    expect(entries[5].payload).toMatchObject({ messageId: messages[3].id, orderSeq: 4 })
    expect(messages[3].tapeEntryId).toBe(6)
    // The source is untouched.
    expect(fx.sessions.messages.list(session.id).messages).toHaveLength(6)
  })

  it('refuses to fork from a message that is still running, and leaves nothing behind', () => {
    const { session } = conversation('S', [['q', 'a']])
    const running = fx.sessions.messages.createAssistantMessage(session.id)
    expect(() => fx.sessions.forkFromMessage(session.id, running.id)).toThrow(
      expect.objectContaining({ code: 'message_not_settled' })
    )
    expect(fx.sessions.list().sessions).toHaveLength(1)
  })

  it('searches history across regular sessions, never subagent forks', () => {
    const kyoto = conversation('Kyoto', [['temples in Kyoto', 'Kinkaku-ji and Ginkaku-ji']])
    const recipes = conversation('Recipes', [['ramen broth', 'Simmer pork bones for 12 hours']])
    const child = fx.sessions.createSubagent(kyoto.session.id, { meta: { slotId: 's', displayName: 'kid' } })
    fx.sessions.messages.appendUserMessage(child.id, { text: 'secret subagent ramen notes' })

    const ramen = fx.sessions.searchHistory('ramen')
    expect(ramen.map((h) => [h.sessionId, h.sessionTitle, h.matchedBy])).toEqual([
      [recipes.session.id, 'Recipes', 'fts']
    ])
    const ji = fx.sessions.searchHistory('ji')
    expect(ji.map((h) => h.sessionTitle)).toEqual(['Kyoto'])
    expect(ji[0].matchedBy).toBe('substring')
    expect(fx.sessions.searchHistory('Kyoto', { kinds: ['message'] }).length).toBe(1)
    expect(fx.sessions.searchHistory('Kyoto', { kinds: ['anchor'] })).toEqual([])
  })
})
