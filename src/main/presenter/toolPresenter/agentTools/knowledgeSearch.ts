import { z } from 'zod'
import { KNOWLEDGE_LIMITS } from '@shared/types/knowledge'
import description from './descriptions/knowledge_search.md?raw'
import { KNOWLEDGE_SERVER, ToolError, defineAgentTool, type AgentToolResult } from './defineTool'
import { knowledgeResultText, numberedKnowledgeSources } from '../../knowledgePresenter/citations'

/** At most this many excerpts per call: each is up to a few hundred tokens. */
export const KNOWLEDGE_SEARCH_MAX_TOP_K = 10

const input = z.strictObject({
  query: z
    .string()
    .trim()
    .min(1)
    .max(KNOWLEDGE_LIMITS.maxQueryChars)
    .describe('What to look for, in words the documents would use'),
  base: z
    .string()
    .max(200)
    .optional()
    .describe('Search only this attached knowledge base (its id or name); default: all attached'),
  top_k: z
    .number()
    .int()
    .min(1)
    .max(KNOWLEDGE_SEARCH_MAX_TOP_K)
    .default(KNOWLEDGE_LIMITS.defaultTopK)
    .describe(`How many excerpts (1-${KNOWLEDGE_SEARCH_MAX_TOP_K})`)
})

/**
 * Searches the chat's attached knowledge bases (hybrid: vectors and full text). Offered only
 * when the chat has one; it reaches no other base. It reads the user's own index and sends only
 * the query to the base's embedding provider, so it asks nothing (like web_search).
 */
export const knowledgeSearchTool = defineAgentTool({
  name: 'knowledge_search',
  group: KNOWLEDGE_SERVER,
  labelKey: 'settingsAgentTools.labels.knowledge_search',
  readOnly: true,
  parallelSafe: true,
  description,
  input,
  aliases: { topK: 'top_k', k: 'top_k', limit: 'top_k', knowledge_base: 'base', baseId: 'base' },
  available: ({ runtime, sessionId }) => (runtime.knowledge?.sessionBases(sessionId).length ?? 0) > 0,
  checkPermission: () => null,
  async execute(args, ctx): Promise<AgentToolResult> {
    const knowledge = ctx.runtime.knowledge
    if (!knowledge)
      throw new ToolError('knowledge_unavailable', 'Knowledge bases are not set up in this app.')
    const attached = knowledge.sessionBases(ctx.sessionId)
    if (attached.length === 0)
      throw new ToolError('knowledge_none_attached', 'No knowledge base is attached to this chat.')
    let baseId: string | undefined
    if (args.base !== undefined) {
      const wanted = args.base.trim()
      const match =
        attached.find((b) => b.id === wanted) ??
        attached.find((b) => b.name.toLowerCase() === wanted.toLowerCase())
      if (!match)
        throw new ToolError(
          'knowledge_base_not_attached',
          `No attached knowledge base is called "${wanted.slice(0, 100)}". Attached: ${attached.map((b) => `${b.name} (${b.id})`).join(', ')}`
        )
      baseId = match.id
    }
    let answer
    try {
      answer = await knowledge.search(ctx.sessionId, args.query, {
        baseId,
        topK: args.top_k,
        signal: ctx.signal
      })
    } catch (error) {
      if (ctx.signal?.aborted) throw error
      const code = (error as { code?: unknown }).code
      throw new ToolError(
        typeof code === 'string' ? code : 'knowledge_search_failed',
        error instanceof Error ? error.message : String(error)
      )
    }
    const { hits, warning } = answer
    return {
      ok: true,
      summary: `${hits.length} excerpt${hits.length === 1 ? '' : 's'} for “${args.query}”`,
      content: knowledgeResultText(args.query, hits, warning),
      data: { kind: 'knowledge_sources', query: args.query, sources: numberedKnowledgeSources(hits) }
    }
  }
})
