import type { TapePresenter } from '../tapePresenter'
import type {
  AgentToolRuntimePort,
  TapeContextPortOptions,
  TapeSearchPortOptions
} from '../toolPresenter/runtimePorts'

export interface TapeToolPortDeps {
  tape: Pick<TapePresenter, 'search' | 'context' | 'info' | 'anchors' | 'handoff'>
  /** A session's tape id (subagents read their fork tape). */
  tapeOf: (sessionId: string) => string
}

export type TapeToolPort = Required<
  Pick<
    AgentToolRuntimePort,
    'searchTape' | 'getTapeContext' | 'getTapeInfo' | 'listTapeAnchors' | 'handoffTape'
  >
>

/** The tape tools' side of the runtime port: every call is scoped to the session's own tape. */
export function createTapeToolPort(deps: TapeToolPortDeps): TapeToolPort {
  return {
    async searchTape(sessionId: string, query: string, options: TapeSearchPortOptions = {}) {
      const hits = deps.tape.search(deps.tapeOf(sessionId), query, {
        limit: options.limit,
        kinds: options.kinds,
        start: options.start,
        end: options.end
      })
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
      return deps.tape.context(deps.tapeOf(sessionId), entryIds, options)
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
