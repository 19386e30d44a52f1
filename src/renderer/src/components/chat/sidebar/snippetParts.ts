export interface SnippetPart {
  text: string
  mark: boolean
}

/**
 * Splits a search snippet into plain and matched runs. The template renders each run as text
 * (escaped by Vue) inside a `<mark>` or not: highlighting never goes through HTML.
 */
export function snippetParts(
  snippet: string,
  highlights: ReadonlyArray<readonly [number, number]>
): SnippetPart[] {
  const parts: SnippetPart[] = []
  let at = 0
  const ranges = [...highlights]
    .filter(([s, e]) => s < e && s >= 0 && e <= snippet.length)
    .sort((a, b) => a[0] - b[0])
  for (const [start, end] of ranges) {
    if (start < at) continue // overlapping ranges: the first one wins
    if (start > at) parts.push({ text: snippet.slice(at, start), mark: false })
    parts.push({ text: snippet.slice(start, end), mark: true })
    at = end
  }
  if (at < snippet.length) parts.push({ text: snippet.slice(at), mark: false })
  return parts
}
