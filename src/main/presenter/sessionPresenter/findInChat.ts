import type { ChatMessageView } from '@shared/types/chat'
import { FIND_MAX_HITS } from '@shared/contracts/routes/chatFind.routes'
import { markdownShownText } from '@shared/markdown/shownText'

type Page = { messages: ChatMessageView[]; hasMore: boolean }
export interface FindHit {
  messageId: string
  orderSeq: number
  count: number
}

const PAGE = 200

/**
 * The words a message shows the user: their own text, or the answer's content blocks as rendered
 * (markdown's marks gone, so `foo **bar**` is found as "foo bar", as the page marks it).
 */
export function shownText(message: ChatMessageView): string {
  if (message.role === 'user') return message.content?.text ?? ''
  return message.blocks
    .filter((b) => b.kind === 'content')
    .map((b) => markdownShownText(b.text))
    .join('\n')
}

/** Occurrences of `needle` (already lower-cased) in `text`, not overlapping. */
export function countOccurrences(text: string, needle: string): number {
  if (!needle) return 0
  const haystack = text.toLocaleLowerCase()
  let count = 0
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) count++
  return count
}

/**
 * Reads the chat page by page (newest first, as the window does, so the branch shown is the one
 * searched) and counts the query in each message's shown text.
 */
export function findInChat(
  readPage: (page: { beforeOrderSeq?: number; limit: number }) => Page,
  query: string
): { hits: FindHit[]; total: number; capped: boolean } {
  const needle = query.toLocaleLowerCase()
  const hits: FindHit[] = []
  let total = 0
  let before: number | undefined
  for (;;) {
    const page = readPage({ ...(before === undefined ? {} : { beforeOrderSeq: before }), limit: PAGE })
    for (const message of [...page.messages].reverse()) {
      const count = countOccurrences(shownText(message), needle)
      if (count === 0) continue
      hits.push({ messageId: message.id, orderSeq: message.orderSeq, count })
      total += count
    }
    const oldest = page.messages[0]
    if (!page.hasMore || !oldest || total > FIND_MAX_HITS) break
    before = oldest.orderSeq
  }
  hits.reverse()
  return { hits, total: Math.min(total, FIND_MAX_HITS), capped: total > FIND_MAX_HITS }
}
