import { AppError } from '@shared/errors'
import { permissionErrorFor, type PermissionGate } from '../permission'
import { mcpCallRequest, mcpToolRisk } from '../permission/mcpRequests'
import type { McpPermissionGate } from '.'

/**
 * The permission path for MCP calls that do not come from a chat turn (the settings test
 * panel): deny rules win, then `autoApproveTools`, then remembered `mcp: server/tool` rules,
 * then the user's "Allow once" on the panel's card for this one call; otherwise the call throws
 * McpPermissionRequiredError like any tool that needs approval.
 */
export function createMcpPermissionGate(
  permissions: Pick<PermissionGate, 'evaluate'>,
  sessionId = 'mcp-settings'
): McpPermissionGate {
  return {
    async assertAllowed({ serverId, toolName, autoApproved, annotations, allowOnce }) {
      const request = mcpCallRequest({
        tool: toolName,
        server: serverId,
        originalTool: toolName,
        sessionId,
        risk: mcpToolRisk(annotations)
      })
      const verdict = permissions.evaluate(request, 'default')
      if (verdict.status === 'deny') throw new AppError('permission_denied', verdict.reason)
      if (verdict.status === 'allow' || autoApproved || allowOnce) return
      throw permissionErrorFor(request)
    }
  }
}
