import {
  mcpRegistryGetSettings,
  mcpRegistryInstall,
  mcpRegistryList,
  mcpRegistryUpdateSettings
} from '@shared/contracts/routes/mcpRegistry.routes'
import type { Router } from '../bridge/router'
import type { McpPresenter } from '../presenter/mcpPresenter'

export function registerMcpRegistryRoutes(router: Router, { mcp }: { mcp: McpPresenter }): void {
  router.handle(mcpRegistryGetSettings, async () => ({ settings: await mcp.registry.settings() }))
  router.handle(mcpRegistryUpdateSettings, async ({ url }) => ({
    settings: await mcp.registry.updateSettings({ url })
  }))
  router.handle(mcpRegistryList, async (query) => ({ page: await mcp.registry.list(query) }))
  router.handle(mcpRegistryInstall, async (request) => ({ server: await mcp.registry.install(request) }))
}
