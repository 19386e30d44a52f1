/**
 * In a browser (headless mode) the page itself tells the user that a chat waits for an answer
 * while the tab is hidden or not focused; in Electron the main process does it natively (see
 * `src/main/electron/attention.ts`). The browser permission is asked once, ever.
 */

/** The browser parts used, so the logic can run against the real API or a test's stand-in. */
export interface BrowserNotifications {
  permission(): NotificationPermission | 'unsupported'
  requestPermission(): Promise<NotificationPermission>
  show(title: string, options: { body: string; tag: string }): void
}

export interface WaitingNotifierDeps {
  /** Subscribes to "a chat paused to wait for the user"; returns the unsubscribe. */
  onPaused(listener: (sessionId: string) => void): () => void
  /** The page is hidden or another window has the focus. */
  inBackground(): boolean
  notifications: BrowserNotifications
  /** Remembers that the permission was asked (localStorage in the app). */
  asked: { get(): boolean; set(): void }
  /** May read the chat from main: a chat that just started is not in the sidebar list yet. */
  text(sessionId: string): { title: string; body: string } | Promise<{ title: string; body: string }>
}

export function notifyWhenWaitingInBrowser(deps: WaitingNotifierDeps): () => void {
  return deps.onPaused((sessionId) => {
    if (!deps.inBackground()) return
    void notify(deps, sessionId)
  })
}

async function notify(deps: WaitingNotifierDeps, sessionId: string): Promise<void> {
  let permission = deps.notifications.permission()
  if (permission === 'unsupported' || permission === 'denied') return
  if (permission === 'default') {
    if (deps.asked.get()) return
    deps.asked.set()
    permission = await deps.notifications.requestPermission()
    if (permission !== 'granted') return
  }
  const { title, body } = await deps.text(sessionId)
  // One notification per chat: a second pause replaces the first instead of piling up.
  deps.notifications.show(title, { body, tag: `deepchat-waiting-${sessionId}` })
}

/** The real browser API, or `unsupported` where there is none. */
export const windowNotifications: BrowserNotifications = {
  permission: () => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission),
  requestPermission: () => Notification.requestPermission(),
  show: (title, options) => void new Notification(title, options)
}

const ASKED_KEY = 'deepchat.notificationPermissionAsked'
export const askedInLocalStorage = {
  get: () => window.localStorage.getItem(ASKED_KEY) === '1',
  set: () => window.localStorage.setItem(ASKED_KEY, '1')
}
