import type { WebSource } from './types/webSearch'

const MAX_TITLE = 300
const MAX_SNIPPET = 600

/** Text from the web: tags and control characters out, entities decoded, spaces collapsed. */
export function plainText(value: string, max: number): string {
  const text = value
    .replace(/<[^>]*>/g, '')
    .replace(
      /&(amp|lt|gt|quot|#39|apos|nbsp);/g,
      (_, name: string) =>
        ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' })[name] ?? ''
    )
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/**
 * An http(s) link as the user may open it, or null: other schemes (javascript:, data:, file:),
 * links with credentials and unparseable ones are dropped.
 */
export function safeLink(raw: string): URL | null {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  if (url.username || url.password || !url.hostname) return null
  return url
}

/** A page found on the web, as an engine or a provider's own search reports it. */
export interface FoundPage {
  title: string
  url: string
  snippet: string
}

/** The pages as numbered sources: links checked, duplicates dropped, at most `max`. */
export function numberedSources(results: readonly FoundPage[], max: number): WebSource[] {
  const sources: WebSource[] = []
  const seen = new Set<string>()
  for (const result of results) {
    if (sources.length >= max) break
    const url = safeLink(result.url)
    if (!url || seen.has(url.href)) continue
    seen.add(url.href)
    const site = url.hostname.replace(/^www\./, '')
    sources.push({
      index: sources.length + 1,
      title: plainText(result.title, MAX_TITLE) || site,
      url: url.href,
      site,
      snippet: plainText(result.snippet, MAX_SNIPPET)
    })
  }
  return sources
}
