import { z } from 'zod'
import description from './descriptions/web_search.md?raw'
import { WEB_SERVER, ToolError, defineAgentTool, type AgentToolResult } from './defineTool'

const input = z.strictObject({
  query: z
    .string()
    .trim()
    .min(1)
    .max(400)
    .describe('What to search for, as you would type it into a search engine'),
  count: z.number().int().min(1).max(20).optional().describe('How many results (default: the user’s setting)')
})

/**
 * Searches with the user's engine; the model gets numbered sources to cite, the chat gets
 * them as data for its sources block. It only sends a query to the engine the user set up,
 * so it asks nothing (like a model call).
 */
export const webSearchTool = defineAgentTool({
  name: 'web_search',
  group: WEB_SERVER,
  labelKey: 'settingsAgentTools.labels.web_search',
  readOnly: true,
  parallelSafe: true,
  description,
  input,
  // Offered once the user has set up an engine (its key, or a SearXNG address).
  available: ({ runtime }) => !!runtime.web?.searchReady(),
  checkPermission: () => null,
  async execute(args, ctx): Promise<AgentToolResult> {
    const web = ctx.runtime.web
    if (!web) throw new ToolError('web_search_unavailable', 'Web search is not set up in this app.')
    let answer
    try {
      answer = await web.search(args.query, { count: args.count, signal: ctx.signal })
    } catch (error) {
      if (ctx.signal?.aborted) throw error
      const code = (error as { code?: unknown }).code
      throw new ToolError(
        typeof code === 'string' ? code : 'web_search_failed',
        error instanceof Error ? error.message : String(error)
      )
    }
    return {
      ok: true,
      summary: `${answer.sources.length} result${answer.sources.length === 1 ? '' : 's'} for “${args.query}”`,
      content: answer.text,
      data: { kind: 'web_sources', query: answer.query, engine: answer.engine, sources: answer.sources }
    }
  }
})
