import { AppError } from '@shared/errors'
import type { PermissionRequest } from '@shared/types/permission'
import { permissionErrorFor, type PermissionGate } from '../permission'
import { reasonOf } from '../permission/reasonText'
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
      const reason = reasonOf('mcp_call', { tool: toolName, server: serverId })
      const request: PermissionRequest = {
        type: 'mcp',
        tool: toolName,
        server: serverId,
        originalTool: toolName,
        sessionId,
        risk: annotations?.destructiveHint ? 'high' : annotations?.readOnlyHint ? 'low' : 'medium',
        reason: reason.text,
        reasonCodes: [reason.code],
        suggestedRule: { kind: 'mcp', pattern: `${serverId}/${toolName}`, effect: 'allow' }
      }
      const verdict = permissions.evaluate(request, 'default')
      if (verdict.status === 'deny') throw new AppError('permission_denied', verdict.reason)
      if (verdict.status === 'allow' || autoApproved || allowOnce) return
      throw permissionErrorFor(request)
    }
  }
}
