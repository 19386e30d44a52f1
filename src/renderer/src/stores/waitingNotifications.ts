import { defineStore } from 'pinia'
import { chatStreamPaused } from '@shared/contracts/events/chat.events'
import { useBridge } from '@renderer/api/bridge'
import {
  askedInLocalStorage,
  notifyWhenWaitingInBrowser,
  windowNotifications
} from '@renderer/lib/waitingNotifications'
import { useSessionsStore } from './sessions'

/** In a browser (headless host) the page tells the user a chat waits; Electron's main process does it natively. */
export const useWaitingNotificationsStore = defineStore('waitingNotifications', () => {
  const sessions = useSessionsStore()

  /** Notifies with `words(chat title)` while the page is in the background; returns the stop. */
  function start(words: (title: string) => { title: string; body: string }): () => void {
    const bridge = useBridge()
    if (bridge.transport.kind === 'electron') return () => undefined
    return notifyWhenWaitingInBrowser({
      onPaused: (listener) => bridge.on(chatStreamPaused, (p) => listener(p.sessionId)),
      inBackground: () => document.visibilityState === 'hidden' || !document.hasFocus(),
      notifications: windowNotifications,
      asked: askedInLocalStorage,
      text: async (sessionId) => words(await sessions.titleOf(sessionId))
    })
  }

  return { start }
})
