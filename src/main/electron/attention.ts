import { chatStreamPaused } from '@shared/contracts/events/chat.events'
import type { EventHub } from '../bridge/events'

/**
 * A native notification when a chat stops to wait for the user (a permission or a question)
 * while the window is not in front: otherwise a long task waits silently in the background.
 */
export function notifyWhenWaiting(deps: {
  events: EventHub
  windowFocused: () => boolean
  notify: (title: string, body: string) => void
  text: () => { needsAnswerTitle: string; needsAnswerBody: string }
}): () => void {
  return deps.events.subscribe((name) => {
    if (name !== chatStreamPaused.name || deps.windowFocused()) return
    const text = deps.text()
    deps.notify(text.needsAnswerTitle, text.needsAnswerBody)
  })
}
