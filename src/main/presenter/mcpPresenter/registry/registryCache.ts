import { z } from 'zod'
import { McpRegistryRefusal, McpRegistryServer } from '@shared/types/mcpRegistry'
import type { ConfigPresenter } from '../../configPresenter'

const CACHE_DOCUMENT = 'mcp.registry.cache'
/** Pages kept (the newest win): enough for the first pages of the searches a user repeats. */
const MAX_ENTRIES = 20
/** The whole document stays under this (it is one settings row, read on every listing). */
const MAX_TOTAL_CHARS = 4_000_000

const CachedPage = z.object({
  registryUrl: z.string(),
  search: z.string(),
  cursor: z.string(),
  fetchedAt: z.number(),
  servers: z.array(McpRegistryServer),
  refused: z.array(McpRegistryRefusal),
  nextCursor: z.string().optional()
})
export type CachedPage = z.infer<typeof CachedPage>

const CacheDocument = z.object({ version: z.literal(1), pages: z.array(CachedPage) })

type CacheBackend = Pick<ConfigPresenter, 'getDocument' | 'setDocument'>

/**
 * The last pages fetched from registries, in the app's SQLite settings table, for when the
 * registry cannot be reached. A document that no longer matches its schema reads as empty.
 */
export class RegistryCache {
  constructor(private readonly backend: CacheBackend) {}

  put(page: CachedPage): void {
    const pages = [page, ...this.read().filter((p) => !sameQuery(p, page))].slice(0, MAX_ENTRIES)
    // Newest first while they fit the size budget; one that does not fit is dropped.
    const kept: CachedPage[] = []
    let total = 0
    for (const candidate of pages) {
      const size = JSON.stringify(candidate).length
      if (total + size > MAX_TOTAL_CHARS) continue
      total += size
      kept.push(candidate)
    }
    this.backend.setDocument(CACHE_DOCUMENT, CacheDocument, { version: 1, pages: kept })
  }

  /** The page fetched for exactly this query, if any. */
  get(registryUrl: string, search: string, cursor: string): CachedPage | undefined {
    return this.read().find((p) => sameQuery(p, { registryUrl, search, cursor }))
  }

  /**
   * Without the exact page: every cached server of the registry whose name, title or
   * description contains the search, newest copy of each, with the oldest fetch time used.
   */
  search(registryUrl: string, search: string): CachedPage | undefined {
    const pages = this.read().filter((p) => p.registryUrl === registryUrl)
    if (pages.length === 0) return undefined
    const needle = search.toLowerCase()
    const seen = new Map<string, McpRegistryServer>()
    let fetchedAt = Infinity
    for (const page of pages) {
      for (const server of page.servers) {
        const haystack = `${server.name}\n${server.title ?? ''}\n${server.description}`.toLowerCase()
        if (seen.has(server.name) || !haystack.includes(needle)) continue
        seen.set(server.name, server)
        fetchedAt = Math.min(fetchedAt, page.fetchedAt)
      }
    }
    if (seen.size === 0) return undefined
    return { registryUrl, search, cursor: '', fetchedAt, servers: [...seen.values()], refused: [] }
  }

  /** A server the user saw, by name and version, for installing it without the network. */
  find(registryUrl: string, name: string, version: string): McpRegistryServer | undefined {
    for (const page of this.read()) {
      if (page.registryUrl !== registryUrl) continue
      const found = page.servers.find((s) => s.name === name && s.version === version)
      if (found) return found
    }
    return undefined
  }

  private read(): CachedPage[] {
    return this.backend.getDocument(CACHE_DOCUMENT, CacheDocument, { version: 1, pages: [] }).pages
  }
}

function sameQuery(a: Pick<CachedPage, 'registryUrl' | 'search' | 'cursor'>, b: typeof a): boolean {
  return a.registryUrl === b.registryUrl && a.search === b.search && a.cursor === b.cursor
}
