import { markdownShownText } from '@shared/markdown/shownText'

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

/** Elements whose text is a block of its own: a hit never joins the end of one to the start of the next. */
const BLOCKS = 'p, li, h1, h2, h3, h4, h5, h6, pre, blockquote, td, th, dt, dd, div, tr, table, summary'

/**
 * Ranges of `needle` (lower case) in the text under `root`, in order. The root's text nodes are
 * read as one text, blocks apart by a line break, so a hit may cross inline formatting
 * ("foo **bar**" holds "foo bar") the way main counts it (shared/markdown/shownText.ts).
 */
export function matchRanges(root: Element, needle: string): Range[] {
  const ranges: Range[] = []
  if (!needle) return ranges
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.parentElement?.closest(NOT_WORDS) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT
  })
  const nodes: Array<{ node: Text; start: number }> = []
  let text = ''
  let lastBlock: Element | null = null
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const closest = node.parentElement?.closest(BLOCKS)
    const block = closest && root.contains(closest) ? closest : root
    if (nodes.length > 0 && block !== lastBlock) text += '\n'
    lastBlock = block
    const lower = node.data.toLocaleLowerCase()
    nodes.push({ node, start: text.length })
    // Lower-casing that changes the length would move offsets: such a node takes part in no hit.
    text += lower.length === node.data.length ? lower : '\uffff'.repeat(node.data.length)
  }
  let first = 0
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
    while (first + 1 < nodes.length && nodes[first + 1].start <= at) first++
    const end = at + needle.length
    let last = first
    while (last + 1 < nodes.length && nodes[last + 1].start < end) last++
    const range = document.createRange()
    range.setStart(nodes[first].node, at - nodes[first].start)
    range.setEnd(nodes[last].node, end - nodes[last].start)
    ranges.push(range)
  }
  return ranges
}

/** Start offsets of `needle` in `text` (lower-cased here), not overlapping. */
function offsetsIn(text: string, needle: string): number[] {
  const haystack = text.toLocaleLowerCase()
  const offsets: number[] = []
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length))
    offsets.push(at)
  return offsets
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
 * The `nth` occurrence in a message's row. `sources` are the texts of its searchable parts (the
 * user's text, or each content block's markdown) in order: the occurrence is found in them, and
 * only the page of a long reply that holds it (by its `data-from` offset) is rendered and searched,
 * so a hit near the end does not scroll through the whole reply. Null when the row shows none.
 */
export async function locateInRow(
  row: Element,
  needle: string,
  nth: number,
  sources: readonly string[]
): Promise<Range | null> {
  const place = placeOf(row, needle, nth, sources)
  if (!place) return null
  if (place.part.hasAttribute('data-far')) {
    place.part.scrollIntoView({ block: 'center' })
    await until(() => !place.part.isConnected || !place.part.hasAttribute('data-far'))
  }
  return locateNow(row, needle, nth, sources)
}

/** The same without rendering anything: null while the page that holds it is far. */
export function locateNow(
  row: Element,
  needle: string,
  nth: number,
  sources: readonly string[]
): Range | null {
  const place = placeOf(row, needle, nth, sources)
  if (!place || place.part.hasAttribute('data-far')) return null
  return pick(matchRanges(place.part, needle), place.index)
}

/** The part (a page of a long reply, or the whole text) holding the `nth` hit, and its index there. */
function placeOf(
  row: Element,
  needle: string,
  nth: number,
  sources: readonly string[]
): { part: HTMLElement; index: number } | null {
  let left = nth
  const roots = [...row.querySelectorAll<HTMLElement>(SEARCH_ROOTS)]
  for (const [index, root] of roots.entries()) {
    const source = sources[index] ?? root.textContent ?? ''
    // A reply's words are its markdown as rendered; the user's own text shows as typed.
    const markdown = root.matches('[data-testid="content-block"]')
    const shown = (text: string) => (markdown ? markdownShownText(text) : text)
    const parts = [...root.querySelectorAll<HTMLElement>('.md-body > .md-page, .md-body > .md-tail')]
    if (parts.length === 0) {
      const count = offsetsIn(shown(source), needle).length
      if (left < count) return { part: root, index: left }
      left -= count
      continue
    }
    // A long reply renders in pages cut at block boundaries (`data-from`: where each starts in
    // the markdown); each page's hits are counted in its own slice.
    const from = (part: HTMLElement) => Number(part.dataset.from ?? 0)
    for (const [at, part] of parts.entries()) {
      const end = at + 1 < parts.length ? from(parts[at + 1]) : source.length
      const count = offsetsIn(shown(source.slice(from(part), end)), needle).length
      if (left < count) return { part, index: left }
      left -= count
    }
  }
  return null
}

/** The wanted range, or the nearest one where markup made the page show fewer. */
function pick(ranges: Range[], wanted: number): Range | null {
  return ranges[Math.max(0, Math.min(wanted, ranges.length - 1))] ?? null
}

/** Resolves once the list's scroll position has held still for a few frames (a jump settling). */
export async function scrollSettled(list: Element): Promise<void> {
  let last = -1
  let still = 0
  await until(() => {
    still = list.scrollTop === last ? still + 1 : 0
    last = list.scrollTop
    return still >= 3
  }, 2000)
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
