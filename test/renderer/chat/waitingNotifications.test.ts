import { describe, expect, it } from 'vitest'
import { notifyWhenWaitingInBrowser, type WaitingNotifierDeps } from '@renderer/lib/waitingNotifications'

/** A page whose visibility, notification permission and user answer the test sets. */
function page(permission: NotificationPermission, answer: NotificationPermission = 'granted') {
  const listeners: Array<(sessionId: string) => void> = []
  const state = { background: true, permission, asked: false, requests: 0 }
  const shown: Array<{ title: string; body: string; tag: string }> = []
  const deps: WaitingNotifierDeps = {
    onPaused: (listener) => {
      listeners.push(listener)
      return () => listeners.splice(listeners.indexOf(listener), 1)
    },
    inBackground: () => state.background,
    notifications: {
      permission: () => state.permission,
      requestPermission: async () => {
        state.requests += 1
        state.permission = answer
        return answer
      },
      show: (title, options) => void shown.push({ title, ...options })
    },
    asked: { get: () => state.asked, set: () => void (state.asked = true) },
    text: (sessionId) => ({ title: 'A chat needs your answer', body: `${sessionId} waits` })
  }
  const pause = async (sessionId: string) => {
    listeners.forEach((l) => l(sessionId))
    await new Promise((r) => setTimeout(r, 0))
  }
  return { deps, state, shown, pause, listeners }
}

describe('notifying in the browser when a chat waits', () => {
  it('asks for the permission once, then notifies each waiting chat while the page is in the background', async () => {
    const p = page('default')
    notifyWhenWaitingInBrowser(p.deps)
    await p.pause('s1')
    await p.pause('s2')
    expect(p.state.requests).toBe(1)
    expect(p.shown).toEqual([
      { title: 'A chat needs your answer', body: 's1 waits', tag: 'deepchat-waiting-s1' },
      { title: 'A chat needs your answer', body: 's2 waits', tag: 'deepchat-waiting-s2' }
    ])
  })

  it('stays quiet while the page is in front', async () => {
    const p = page('granted')
    notifyWhenWaitingInBrowser(p.deps)
    p.state.background = false
    await p.pause('s1')
    expect(p.shown).toEqual([])
  })

  it('never asks again after the user dismissed or refused the prompt', async () => {
    const dismissed = page('default', 'default')
    notifyWhenWaitingInBrowser(dismissed.deps)
    await dismissed.pause('s1')
    await dismissed.pause('s1')
    expect(dismissed.state.requests).toBe(1)
    expect(dismissed.shown).toEqual([])

    const refused = page('denied')
    const stop = notifyWhenWaitingInBrowser(refused.deps)
    await refused.pause('s1')
    expect(refused.state.requests).toBe(0)
    stop()
    expect(refused.listeners).toHaveLength(0)
  })
})
