import { afterEach, describe, expect, it } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { chatMessageCreated } from '@shared/contracts/events/chat.events'
import { groupSessions, useSessionsStore } from '@renderer/stores/sessions'
import { useRealBridge } from '../helpers/realBridge'

let bridge: ReturnType<typeof useRealBridge> | undefined
afterEach(async () => {
  await bridge?.dispose()
  bridge = undefined
})

describe('the chat list order', () => {
  it('moves a chat to the top as soon as it gets a new message, without reloading the list', async () => {
    bridge = useRealBridge()
    const { sessions, events } = bridge.presenters
    const older = sessions.create({ title: 'older chat' })
    // Created in the same millisecond the two would tie: the clock ticks first.
    for (const at = Date.now(); Date.now() === at;);
    const newer = sessions.create({ title: 'newer chat' })
    setActivePinia(createPinia())
    const store = useSessionsStore()
    await store.load()
    const titles = () =>
      groupSessions(store.sessions, Date.now()).flatMap((g) => g.sessions.map((s) => s.title))
    expect(titles()).toEqual(['newer chat', 'older chat'])
    const reads = bridge.calls.length

    // The message as the chat loop stores and announces it.
    const message = sessions.messages.appendUserMessage(older.id, { text: 'hello again' })
    events.emit(chatMessageCreated, { sessionId: older.id, message })
    await Promise.resolve()
    expect(titles()).toEqual(['older chat', 'newer chat'])
    expect(bridge.calls.length).toBe(reads)
    expect(newer.id).not.toBe(older.id)
  })
})

describe('sorting chats beyond pin', () => {
  const record = (id: string, title: string, createdAt: number, lastActivityAt: number, pinned = false) =>
    ({ id, title, createdAt, lastActivityAt, pinned }) as Parameters<typeof groupSessions>[0][number]
  const now = Date.parse('2026-06-10T12:00:00')
  const list = [
    record('a', 'banana plans', Date.parse('2026-06-01T09:00:00'), Date.parse('2026-06-10T11:00:00')),
    record('b', 'Apple notes', Date.parse('2026-06-09T09:00:00'), Date.parse('2026-06-09T10:00:00')),
    record('c', 'chat 10', Date.parse('2026-06-05T09:00:00'), Date.parse('2026-06-05T10:00:00')),
    record('d', 'chat 9', Date.parse('2026-06-08T09:00:00'), Date.parse('2026-06-08T10:00:00')),
    record('p', 'zebra (pinned)', Date.parse('2026-05-01T09:00:00'), Date.parse('2026-05-01T10:00:00'), true)
  ]
  const flat = (by: 'activity' | 'created' | 'title') =>
    groupSessions(list, now, by).map((g) => [g.key, g.sessions.map((s) => s.id)])

  it('orders by recent activity in day groups, by date created, or by title — pinned chats stay on top', () => {
    expect(flat('activity')[0]).toEqual(['pinned', ['p']])
    expect(
      flat('activity')
        .slice(1)
        .flatMap(([, ids]) => ids)
    ).toEqual(['a', 'b', 'd', 'c'])
    expect(flat('created')).toEqual([
      ['pinned', ['p']],
      ['all', ['b', 'd', 'c', 'a']]
    ])
    // Case-insensitive, and numbers in titles compare as numbers (chat 9 before chat 10).
    expect(flat('title')).toEqual([
      ['pinned', ['p']],
      ['all', ['b', 'a', 'd', 'c']]
    ])
  })
})
