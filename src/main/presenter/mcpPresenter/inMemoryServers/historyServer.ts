import { z } from 'zod'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'

export interface HistoryHit {
  sessionId: string
  sessionTitle: string
  kind: string
  createdAt: number
  summary: string
}

/** What the history server needs: full-text search over past conversations (sessionPresenter). */
export interface HistorySearchPort {
  searchHistory(query: string, options: { limit?: number }): HistoryHit[]
}

/**
 * Built-in server `deepchat-history`: lets the model look up what was said in earlier
 * conversations ("what did we decide about X last week?").
 */
export function createHistoryServer(history: HistorySearchPort): McpServer {
  const server = new McpServer({ name: 'deepchat-history', version: '1.0.0' })
  server.registerTool(
    'search_conversations',
    {
      title: 'Search past conversations',
      description: 'Full-text search over the messages of earlier conversations, best matches first.',
      inputSchema: {
        query: z.string().min(1).max(500).describe('Words to look for'),
        limit: z.number().int().min(1).max(50).optional().describe('At most this many hits (default 10)')
      },
      annotations: { readOnlyHint: true, openWorldHint: false }
    },
    async ({ query, limit }) => {
      const hits = history.searchHistory(query, { limit: limit ?? 10 }).map((h) => ({
        conversation: h.sessionTitle,
        sessionId: h.sessionId,
        kind: h.kind,
        at: new Date(h.createdAt).toISOString(),
        text: h.summary
      }))
      const text = hits.length
        ? hits.map((h) => `[${h.at}] ${h.conversation} (${h.kind}): ${h.text}`).join('\n')
        : `No past conversation mentions "${query}".`
      return { content: [{ type: 'text', text }], structuredContent: { hits } }
    }
  )
  return server
}
