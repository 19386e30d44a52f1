import type { PermissionRequest, RiskLevel } from '@shared/types/permission'
import { reasonOf } from './reasonText'

/** What an MCP tool's own hints make of a call's risk: destructive high, read-only low, else medium. */
export function mcpToolRisk(
  hints: { readOnlyHint?: boolean; destructiveHint?: boolean } | undefined
): RiskLevel {
  if (hints?.destructiveHint) return 'high'
  return hints?.readOnlyHint ? 'low' : 'medium'
}

/**
 * A call of an MCP tool as a permission request, from a chat turn or the settings test panel:
 * `tool` as the caller named it, `originalTool` as its server does; "Always allow" remembers
 * `mcp: <server>/<tool>`.
 */
export function mcpCallRequest(call: {
  tool: string
  server: string
  originalTool: string
  sessionId: string
  risk: RiskLevel
}): PermissionRequest {
  const reason = reasonOf('mcp_call', { tool: call.originalTool, server: call.server })
  return {
    type: 'mcp',
    tool: call.tool,
    server: call.server,
    originalTool: call.originalTool,
    sessionId: call.sessionId,
    risk: call.risk,
    reason: reason.text,
    reasonCodes: [reason.code],
    suggestedRule: { kind: 'mcp', pattern: `${call.server}/${call.originalTool}`, effect: 'allow' }
  }
}
