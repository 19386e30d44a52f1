import { z } from 'zod'
import { defineEvent } from '../define'

/**
 * The tools a server holds off for review changed (a pinned tool changed, a new one appeared,
 * or the user accepted or kept one off): re-read them with mcp.toolChanges. `pending` counts
 * those not kept off.
 */
export const mcpToolPinsChanged = defineEvent({
  name: 'mcp.toolPins.changed',
  payload: z.object({ serverId: z.string(), pending: z.number().int().nonnegative() })
})
