import type { TapePresenter } from '../tapePresenter'
import type {
  AgentToolRuntimePort,
  TapeContextPortOptions,
  TapeSearchPortOptions
} from '../toolPresenter/runtimePorts'

export interface TapeToolPortDeps {
  tape: Pick<TapePresenter, 'search' | 'context' | 'info' | 'anchors' | 'handoff' | 'entry'>
  /** A session's tape id (subagents read their fork tape). */
  tapeOf: (sessionId: string) => string
  /**
   * Messages the chat does not show (deleted, or a variant not chosen): the tape keeps them,
   * but the model's tape tools do not find them, as its context does not hold them.
   */
  hiddenMessageIds?: (sessionId: string) => Set<string>
}

const DEFAULT_SEARCH_LIMIT = 20

export type TapeToolPort = Required<
  Pick<
    AgentToolRuntimePort,
    'searchTape' | 'getTapeContext' | 'getTapeInfo' | 'listTapeAnchors' | 'handoffTape'
  >
>

/** The tape tools' side of the runtime port: every call is scoped to the session's own tape. */
export function createTapeToolPort(deps: TapeToolPortDeps): TapeToolPort {
  /** Whether an entry belongs to a message the chat does not show. */
  const hiddenEntry = (tapeId: string, hidden: Set<string>) => (entryId: number) => {
    if (hidden.size === 0) return false
    const messageId = deps.tape.entry(tapeId, entryId)?.payload.messageId
    return typeof messageId === 'string' && hidden.has(messageId)
  }
  return {
    async searchTape(sessionId: string, query: string, options: TapeSearchPortOptions = {}) {
      const tapeId = deps.tapeOf(sessionId)
      const hidden = deps.hiddenMessageIds?.(sessionId) ?? new Set<string>()
      const isHidden = hiddenEntry(tapeId, hidden)
      const limit = options.limit ?? DEFAULT_SEARCH_LIMIT
      const hits = deps.tape
        .search(tapeId, query, {
          // Room for hits on hidden messages, which are dropped.
          limit: hidden.size ? Math.min(100, limit * 2) : options.limit,
          kinds: options.kinds,
          start: options.start,
          end: options.end
        })
        .filter((h) => !isHidden(h.entryId))
        .slice(0, limit)
      return hits.map((h) => ({
        entryId: h.entryId,
        kind: h.kind,
        name: h.name ?? '',
        createdAt: h.createdAt,
        summary: h.summary,
        score: h.score
      }))
    },
    async getTapeContext(sessionId: string, entryIds: number[], options: TapeContextPortOptions = {}) {
      const tapeId = deps.tapeOf(sessionId)
      const isHidden = hiddenEntry(tapeId, deps.hiddenMessageIds?.(sessionId) ?? new Set())
      const shown = entryIds.filter((id) => !isHidden(id))
      // Only hidden entries asked for: the same answer as for ids that do not exist.
      if (shown.length === 0)
        return {
          tapeId,
          requestedEntryIds: entryIds,
          matchedEntryIds: [],
          omittedEntryIds: [],
          totalBytes: 0,
          entries: []
        }
      const result = deps.tape.context(tapeId, shown, options)
      const entries = result.entries.filter((e) => !isHidden(e.entryId))
      const kept = new Set(entries.map((e) => e.entryId))
      return {
        ...result,
        requestedEntryIds: entryIds,
        matchedEntryIds: result.matchedEntryIds.filter((id) => kept.has(id)),
        entries
      }
    },
    async getTapeInfo(sessionId: string) {
      return deps.tape.info(deps.tapeOf(sessionId))
    },
    async listTapeAnchors(sessionId: string, limit: number) {
      return deps.tape.anchors(deps.tapeOf(sessionId), limit)
    },
    /** Takes effect at the next run: the context builder starts after the latest handoff anchor. */
    async handoffTape(sessionId: string, name: string, summary: string) {
      const anchor = deps.tape.handoff(deps.tapeOf(sessionId), { name, summary, whenNoSummary: 'extract' })
      return { entryId: anchor.entryId }
    }
  }
}

/**
 * The loop's port plus the members other features add. The loop's own methods keep their
 * `this` (the result inherits from `base`), so it stays the single object the loop attaches to.
 */
export function extendRuntimePort<T extends AgentToolRuntimePort>(
  base: T,
  extras: Partial<AgentToolRuntimePort>
): T {
  const port = Object.create(base) as T
  for (const [key, value] of Object.entries(extras)) {
    if (value !== undefined) Object.defineProperty(port, key, { value, enumerable: true })
  }
  return port
}
