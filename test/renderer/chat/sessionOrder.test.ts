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
