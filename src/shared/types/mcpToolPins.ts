import { z } from 'zod'

/**
 * What is pinned of an MCP tool: everything about it that the model or the approval card is
 * shown. Schemas and annotations stay `unknown` here: they come from an untrusted server and
 * are only hashed, stored and displayed, never interpreted.
 */
export const McpPinnedTool = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: z.unknown(),
  outputSchema: z.unknown().optional(),
  annotations: z.unknown().optional()
})
export type McpPinnedTool = z.infer<typeof McpPinnedTool>

/** The parts of a pinned tool a change can touch, in the order the card shows them. */
export const McpPinnedField = z.enum(['title', 'description', 'inputSchema', 'outputSchema', 'annotations'])
export type McpPinnedField = z.infer<typeof McpPinnedField>

/**
 * A tool held off until the user reviews it: `changed` since it was pinned (its definition
 * hashes differently), or `new` (never pinned on a server whose tools were pinned before).
 * `hash` is the current definition's; accepting sends it back, so only what was shown is pinned.
 */
export const McpToolChange = z.object({
  serverId: z.string(),
  name: z.string(),
  kind: z.enum(['changed', 'new']),
  /** The user chose "Keep off" for exactly this definition; it stays off and is shown folded. */
  keptOff: z.boolean(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  /** When the definition it differs from was pinned (absent for a new tool). */
  pinnedAt: z.number().int().optional(),
  /** The fields that differ, as text (schemas as key-sorted, indented JSON); cut when huge. */
  fields: z.array(z.object({ field: McpPinnedField, before: z.string(), after: z.string() }))
})
export type McpToolChange = z.infer<typeof McpToolChange>
