import {
  mcpAcceptToolChanges,
  mcpKeepToolsOff,
  mcpToolChanges
} from '@shared/contracts/routes/mcpToolPins.routes'
import type { Router } from '../bridge/router'
import type { McpPresenter } from '../presenter/mcpPresenter'

export function registerMcpToolPinRoutes(router: Router, { mcp }: { mcp: McpPresenter }): void {
  router.handle(mcpToolChanges, ({ serverId }) => ({ changes: mcp.toolChanges(serverId) }))
  router.handle(mcpAcceptToolChanges, ({ serverId, tools }) => ({
    changes: mcp.acceptToolChanges(serverId, tools)
  }))
  router.handle(mcpKeepToolsOff, ({ serverId, names }) => ({ changes: mcp.keepToolsOff(serverId, names) }))
}
