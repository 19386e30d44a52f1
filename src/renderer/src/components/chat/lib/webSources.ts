/** One source of a web_search result, as its block lists it. */
export interface ShownSource {
  index: number
  title: string
  site: string
  url: string
}

/**
 * The numbered sources in a web_search result's text (`[n] title — site` then the link on its
 * own line, as main writes them). Titles and snippets are one line each (main collapses their
 * whitespace), so a page's text cannot forge an entry; only http(s) links are kept.
 */
export function webSourcesOf(response: string | undefined): ShownSource[] {
  if (!response) return []
  const sources: ShownSource[] = []
  for (const match of response.matchAll(/^\[(\d{1,2})\] (.+) — (\S+)\n(https?:\/\/\S+)$/gm)) {
    let url: URL
    try {
      url = new URL(match[4])
    } catch {
      continue
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue
    sources.push({ index: Number(match[1]), title: match[2], site: match[3], url: url.href })
  }
  return sources
}

/** Sources kept on an answer (the provider's own search): again only http(s) links. */
export function shownSources(sources: readonly ShownSource[]): ShownSource[] {
  return sources.flatMap((source) => {
    let url: URL
    try {
      url = new URL(source.url)
    } catch {
      return []
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return []
    return [{ index: source.index, title: source.title, site: source.site, url: url.href }]
  })
}
