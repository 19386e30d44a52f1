import type { MCPToolDefinition } from '@shared/types/tools'

/** Above either limit a session's MCP tools are deferred: the model finds them with `tool_search`. */
export interface ToolSearchLimits {
  maxTools: number
  maxSchemaTokens: number
}

export const DEFAULT_TOOL_SEARCH_LIMITS: ToolSearchLimits = { maxTools: 100, maxSchemaTokens: 30_000 }

export interface ToolSearchHit {
  name: string
  server: string
  description: string
}

/** What `tool_search` reaches through its context: this session's deferred catalog. */
export interface ToolSearchPort {
  /** Best matches first; each becomes callable (offered) from the next request on. */
  search(query: string, limit: number): ToolSearchHit[]
  total(): number
}

function schemaTokens(definitions: readonly MCPToolDefinition[]): number {
  return Math.ceil(JSON.stringify(definitions.map((d) => d.function)).length / 4)
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
}

/** How well a tool matches: whole-name hits first, then words of the name, then the description. */
function score(definition: MCPToolDefinition, query: string, terms: readonly string[]): number {
  const name = definition.function.name.toLowerCase()
  const nameWords = new Set(words(`${name} ${definition.server.name}`))
  const described = new Set(words(definition.function.description))
  let total = name === query || name.endsWith(`__${query}`) ? 100 : 0
  for (const term of terms) {
    if (nameWords.has(term)) total += 10
    else if (name.includes(term)) total += 5
    if (described.has(term)) total += 2
  }
  return total
}

/**
 * Per session: the MCP tools kept back because the catalog is too big to send, and those the
 * model found (and so gets offered). Found tools stay offered for the rest of the session.
 */
export class DeferredTools {
  private readonly sessions = new Map<string, { all: MCPToolDefinition[]; loaded: Set<string> }>()

  constructor(
    /** Read at each offer, so a changed setting applies to the next request. */
    private readonly limitsNow: () => ToolSearchLimits = () => DEFAULT_TOOL_SEARCH_LIMITS,
    /** Told once per session when it goes over the limits (the user sees a notice). */
    private readonly onDeferred?: (info: { sessionId: string; total: number; limit: number }) => void
  ) {}

  /**
   * The MCP definitions to offer this session: all of them when under the limits, else only
   * those found so far. `deferred` tells whether `tool_search` must be offered.
   */
  offer(sessionId: string, mcp: MCPToolDefinition[]): { offered: MCPToolDefinition[]; deferred: boolean } {
    const limits = this.limitsNow()
    if (mcp.length <= limits.maxTools && schemaTokens(mcp) <= limits.maxSchemaTokens) {
      this.sessions.delete(sessionId)
      return { offered: mcp, deferred: false }
    }
    const previous = this.sessions.get(sessionId)
    if (!previous) this.onDeferred?.({ sessionId, total: mcp.length, limit: limits.maxTools })
    const loaded = previous?.loaded ?? new Set<string>()
    this.sessions.set(sessionId, { all: [...mcp], loaded })
    return { offered: mcp.filter((d) => loaded.has(d.function.name)), deferred: true }
  }

  isDeferred(sessionId: string): boolean {
    return this.sessions.has(sessionId)
  }

  port(sessionId: string): ToolSearchPort | undefined {
    const state = this.sessions.get(sessionId)
    if (!state) return undefined
    return {
      total: () => state.all.length,
      search: (query, limit) => {
        const q = query.trim().toLowerCase()
        const terms = words(q)
        const hits = state.all
          .map((definition) => ({ definition, score: score(definition, q, terms) }))
          .filter((hit) => hit.score > 0)
          .sort((a, b) => b.score - a.score)
          .slice(0, limit)
        for (const { definition } of hits) state.loaded.add(definition.function.name)
        return hits.map(({ definition }) => ({
          name: definition.function.name,
          server: definition.server.name,
          description: definition.function.description
        }))
      }
    }
  }

  clear(sessionId: string): void {
    this.sessions.delete(sessionId)
  }
}
