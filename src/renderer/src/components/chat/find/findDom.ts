/**
 * Find in chat, on the page: the text ranges of a query in the rendered messages, the k-th one
 * of a message (rendering far pages of a long reply on the way), and the highlights.
 */

/** Where a message's searchable words are: the user's text and the answer's content blocks. */
const SEARCH_ROOTS = '[data-testid="user-text"], [data-testid="content-block"]'
/** Rendered text that is not the message's words (code block headers, buttons, KaTeX's copy for readers). */
const NOT_WORDS = '.md-code-head, button, .katex-mathml, [hidden]'
const HIT = 'find-hit'
const CURRENT = 'find-current'

/** Ranges of `needle` (lower case) in the text under `root`, in order; matches inside one text node. */
export function matchRanges(root: Element, needle: string): Range[] {
  const ranges: Range[] = []
  if (!needle) return ranges
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.parentElement?.closest(NOT_WORDS) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT
  })
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const text = node.data.toLocaleLowerCase()
    if (text.length !== node.data.length) continue // lower-casing moved offsets: no safe range
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
      const range = document.createRange()
      range.setStart(node, at)
      range.setEnd(node, at + needle.length)
      ranges.push(range)
    }
  }
  return ranges
}

/** A message's text in order, split where a long reply is paged (a far page is an empty box). */
function segments(row: Element): Element[] {
  return [...row.querySelectorAll(SEARCH_ROOTS)].flatMap((root) => {
    const parts = [...root.querySelectorAll('.md-body > .md-page, .md-body > .md-tail')]
    return parts.length ? parts : [root]
  })
}

async function until(check: () => boolean, timeoutMs = 1500): Promise<boolean> {
  const started = performance.now()
  while (!check()) {
    if (performance.now() - started > timeoutMs) return false
    await new Promise((resolve) => requestAnimationFrame(() => resolve(null)))
  }
  return true
}

/**
 * The `index`-th occurrence in a message's row. Pages far from the viewport are scrolled to, so
 * they render, as the count passes them. Null when the page shows fewer (markup split a match).
 */
export async function locateInRow(row: Element, needle: string, index: number): Promise<Range | null> {
  let seen = 0
  for (const segment of segments(row)) {
    if (segment.hasAttribute('data-far')) {
      segment.scrollIntoView({ block: 'center' })
      await until(() => !segment.isConnected || !segment.hasAttribute('data-far'))
    }
    const ranges = matchRanges(segment, needle)
    if (seen + ranges.length > index) return ranges[index - seen]
    seen += ranges.length
  }
  return null
}

/** The row of a message in the list, once the list has rendered it. */
export async function rowOf(list: Element, messageId: string): Promise<Element | null> {
  let row: Element | null = null
  await until(() => Boolean((row = list.querySelector(`[data-message-id="${CSS.escape(messageId)}"]`))), 3000)
  return row
}

function highlightsSupported(): boolean {
  return typeof Highlight !== 'undefined' && typeof CSS !== 'undefined' && 'highlights' in CSS
}

/** Marks every rendered hit, and the current one apart (CSS Custom Highlights: the DOM is untouched). */
export function paintHighlights(list: Element | null, needle: string, current: Range | null): number {
  const ranges = list ? [...list.querySelectorAll(SEARCH_ROOTS)].flatMap((r) => matchRanges(r, needle)) : []
  if (highlightsSupported()) {
    CSS.highlights.set(HIT, new Highlight(...ranges))
    if (current && current.startContainer.isConnected) CSS.highlights.set(CURRENT, new Highlight(current))
    else CSS.highlights.delete(CURRENT)
  }
  return ranges.length
}

export function clearHighlights(): void {
  if (!highlightsSupported()) return
  CSS.highlights.delete(HIT)
  CSS.highlights.delete(CURRENT)
}
