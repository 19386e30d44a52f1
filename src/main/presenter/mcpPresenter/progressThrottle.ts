import type { McpCallOptions } from '../toolPresenter/mcpToolSource'

type Progress = Parameters<NonNullable<McpCallOptions['onProgress']>>[0]

/** Progress is a status line on the tool block, not a channel for data. */
export const PROGRESS_LIMITS = { messageChars: 200, burst: 5, intervalMs: 250 }

/**
 * Passes a call's progress on at most every `intervalMs` after a short burst, the latest
 * update winning (a server sending thousands a second costs the UI a few a second), with the
 * message cut to `messageChars`. `flush()` delivers the last held update before the result.
 */
export function throttleProgress(
  deliver: (progress: Progress) => void,
  limits = PROGRESS_LIMITS
): { push(progress: Progress): void; flush(): void; stop(): void } {
  let tokens = limits.burst
  let last = 0
  let held: Progress | undefined
  let timer: NodeJS.Timeout | undefined

  const send = (progress: Progress) => {
    last = Date.now()
    try {
      deliver(progress)
    } catch {
      // A failing listener must not break the call.
    }
  }
  const release = () => {
    timer = undefined
    if (!held) return
    const next = held
    held = undefined
    send(next)
  }
  return {
    push(raw) {
      const progress = shape(raw, limits.messageChars)
      if (!progress) return
      if (tokens > 0) {
        tokens--
        send(progress)
        return
      }
      held = progress
      if (!timer) {
        timer = setTimeout(release, Math.max(0, limits.intervalMs - (Date.now() - last)))
        timer.unref?.()
      }
    },
    flush() {
      clearTimeout(timer)
      release()
    },
    stop() {
      clearTimeout(timer)
      timer = undefined
      held = undefined
    }
  }
}

function shape(raw: Progress, maxChars: number): Progress | undefined {
  if (typeof raw.progress !== 'number' || !Number.isFinite(raw.progress)) return undefined
  const total = typeof raw.total === 'number' && Number.isFinite(raw.total) ? raw.total : undefined
  // Only the head can be shown: collapse whitespace there, not across a megabyte.
  const message =
    typeof raw.message === 'string'
      ? raw.message
          .slice(0, maxChars * 4)
          .replace(/\s+/g, ' ')
          .trim()
      : ''
  return {
    progress: raw.progress,
    ...(total !== undefined ? { total } : {}),
    ...(message ? { message: message.length > maxChars ? `${cut(message, maxChars - 1)}…` : message } : {})
  }
}

/** The first `chars` UTF-16 units, without leaving half a surrogate pair. */
function cut(text: string, chars: number): string {
  const head = text.slice(0, chars)
  return /[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head
}
