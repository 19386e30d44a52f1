import { z } from 'zod'
import { defineRoute } from '../define'
import { McpToolChange } from '../../types/mcpToolPins'

const serverId = z.string().min(1).max(64)
const toolName = z.string().min(1).max(1_000)
const changesOut = z.object({ changes: z.array(McpToolChange) })

/** Tools held off for review (changed since pinned, or new), with what changed; all running servers without serverId. */
export const mcpToolChanges = defineRoute({
  name: 'mcp.toolChanges',
  input: z.object({ serverId: serverId.optional() }).strict(),
  output: changesOut
})

/**
 * Pins the definitions the user reviewed: each tool with the hash it was shown under. A tool
 * that changed again meanwhile is refused (`mcp_tool_changed_again`) and nothing is pinned.
 */
export const mcpAcceptToolChanges = defineRoute({
  name: 'mcp.acceptToolChanges',
  input: z
    .object({
      serverId,
      tools: z
        .array(z.object({ name: toolName, hash: z.string().regex(/^[0-9a-f]{64}$/) }).strict())
        .min(1)
        .max(2_000)
    })
    .strict(),
  output: changesOut
})

/** Keeps held tools off; the card folds them until their definition changes again. */
export const mcpKeepToolsOff = defineRoute({
  name: 'mcp.keepToolsOff',
  input: z.object({ serverId, names: z.array(toolName).min(1).max(2_000) }).strict(),
  output: changesOut
})
