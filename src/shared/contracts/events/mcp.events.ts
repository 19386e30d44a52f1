import { z } from 'zod'
import { defineEvent } from '../define'
import { McpElicitationRequest, McpSamplingRequest, McpServerStatus } from '../../types/mcp'

/** A server started, stopped, failed, is reconnecting, or wrote to stderr. */
export const mcpServerStatusChanged = defineEvent({
  name: 'mcp.server.status.changed',
  payload: z.object({ status: McpServerStatus })
})

/** The server list changed (add, update, remove, import): re-read it with mcp.list. */
export const mcpConfigChanged = defineEvent({
  name: 'mcp.config.changed',
  payload: z.object({ serverIds: z.array(z.string()) })
})

/** A server's tools, prompts or resources changed (connect, disconnect or list_changed). */
export const mcpCatalogChanged = defineEvent({
  name: 'mcp.catalog.changed',
  payload: z.object({ serverId: z.string(), kinds: z.array(z.enum(['tools', 'prompts', 'resources'])) })
})

/** A server asks the user to fill a form; answer with mcp.answerElicitation. */
export const mcpElicitationRequested = defineEvent({
  name: 'mcp.elicitation.requested',
  payload: z.object({ request: McpElicitationRequest })
})

/**
 * A chat's MCP catalog is too big to send whole: its tools are found with `tool_search` from now
 * on (sent once, when the chat goes over the limit). The chat shows a short notice.
 */
export const mcpToolsDeferred = defineEvent({
  name: 'mcp.tools.deferred',
  payload: z.object({ sessionId: z.string(), total: z.number().int(), limit: z.number().int() })
})

/** A server asks to run the model; answer with mcp.answerSampling. */
export const mcpSamplingRequested = defineEvent({
  name: 'mcp.sampling.requested',
  payload: z.object({ request: McpSamplingRequest })
})

/** A pending elicitation or sampling request ended without an answer (server cancelled, timeout, server stopped). */
export const mcpInteractionCancelled = defineEvent({
  name: 'mcp.interaction.cancelled',
  payload: z.object({ requestId: z.string(), reason: z.string() })
})
