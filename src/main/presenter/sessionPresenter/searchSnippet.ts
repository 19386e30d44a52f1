/**
 * A search hit's snippet: a short window of a message's text around the first match, with the
 * ranges of every match inside it. The ranges are offsets, not markup: the UI escapes the text
 * and marks the ranges itself, so nothing a message says can become HTML.
 */
export interface Snippet {
  text: string
  /** [start, end) offsets into `text`. */
  highlights: Array<[number, number]>
}

const SNIPPET_CHARS = 180
const LEAD_CHARS = 60

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The query's words, as the tape search splits them (whitespace and NUL). */
export function queryWords(query: string): string[] {
  return [
    ...new Set(
      query
        .trim()
        .split(/[\s\0]+/)
        .filter(Boolean)
    )
  ]
}

/** Null when the text does not contain every word (the hit matched something else). */
export function buildSnippet(rawText: string, words: readonly string[]): Snippet | null {
  const text = rawText.replace(/\s+/g, ' ').trim()
  if (!text || words.length === 0) return null
  const pattern = new RegExp(words.map(escapeRegExp).join('|'), 'giu')
  const matches = [...text.matchAll(pattern)].map((m) => [m.index, m.index + m[0].length] as [number, number])
  const found = new Set(matches.map(([s, e]) => text.slice(s, e).toLocaleLowerCase()))
  if (!words.every((w) => found.has(w.toLocaleLowerCase()))) return null

  const first = matches[0][0]
  let start = Math.max(0, first - LEAD_CHARS)
  if (start > 0) {
    const space = text.indexOf(' ', start)
    if (space >= 0 && space < first) start = space + 1
  }
  let end = Math.min(text.length, start + SNIPPET_CHARS)
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end)
    if (space > first) end = space
  }
  const prefix = start > 0 ? '…' : ''
  const suffix = end < text.length ? '…' : ''
  const highlights = matches
    .filter(([s, e]) => s >= start && e <= end)
    .map(([s, e]) => [s - start + prefix.length, e - start + prefix.length] as [number, number])
  return { text: `${prefix}${text.slice(start, end)}${suffix}`, highlights }
}
