import { z } from 'zod'

/** A built-in agent tool as the settings page and the chat's tools popover show it. */
export const AgentToolInfo = z.object({
  name: z.string(),
  /** The group it is listed under (`agent-filesystem`, `agent-core`, ...). */
  group: z.string(),
  /** i18n key of its friendly name. */
  labelKey: z.string(),
  readOnly: z.boolean(),
  description: z.string(),
  /** `diagnostic`: off in every chat until switched on there, whatever this switch says. */
  exposure: z.enum(['model', 'diagnostic']),
  /** False when the user switched it off for new sessions. */
  enabled: z.boolean()
})
export type AgentToolInfo = z.infer<typeof AgentToolInfo>

/** One tool exactly as the next provider request of a chat offers it, with a name for people. */
export const OfferedTool = z.object({
  /** The name the model calls it by (MCP tools: `<slug>__<tool>`). */
  name: z.string(),
  source: z.enum(['agent', 'mcp']),
  /** Built-ins: the i18n key of their friendly name. */
  labelKey: z.string().optional(),
  /** The tool's own title, else the first line of its description. */
  title: z.string(),
  /** Built-ins: their group (`agent-filesystem`…); MCP tools: the server's id. */
  serverId: z.string(),
  serverName: z.string()
})
export type OfferedTool = z.infer<typeof OfferedTool>

export const OfferedTools = z.object({
  tools: z.array(OfferedTool),
  /** The chat's MCP catalog is too big to send: `total` tools are reached through `tool_search`. */
  deferred: z.object({ total: z.number().int().nonnegative() }).nullable()
})
export type OfferedTools = z.infer<typeof OfferedTools>
