import {
  mcpAdd,
  mcpAnswerElicitation,
  mcpAnswerSampling,
  mcpCallTool,
  mcpExportJson,
  mcpGetPrompt,
  mcpImportJson,
  mcpList,
  mcpListPrompts,
  mcpComplete,
  mcpListResources,
  mcpListTools,
  mcpOAuthSignOut,
  mcpOAuthState,
  mcpReadResource,
  mcpRemove,
  mcpRestart,
  mcpSetEnabled,
  mcpStart,
  mcpStop,
  mcpUpdate
} from '@shared/contracts/routes/mcp.routes'
import type { Router } from '../bridge/router'
import type { McpPresenter } from '../presenter/mcpPresenter'

export function registerMcpRoutes(router: Router, { mcp }: { mcp: McpPresenter }): void {
  router.handle(mcpList, () => ({ servers: mcp.listServers() }))
  router.handle(mcpAdd, async ({ server }) => ({ server: await mcp.addServer(server) }))
  router.handle(mcpUpdate, async ({ serverId, patch }) => ({
    server: await mcp.updateServer(serverId, patch)
  }))
  router.handle(mcpRemove, async ({ serverId }) => {
    await mcp.removeServer(serverId)
    return { removed: true as const }
  })
  router.handle(mcpSetEnabled, async ({ serverId, enabled }) => ({
    server: await mcp.setEnabled(serverId, enabled)
  }))
  router.handle(mcpStart, async ({ serverId }) => ({ server: await mcp.startServer(serverId) }))
  router.handle(mcpStop, async ({ serverId }) => ({ server: await mcp.stopServer(serverId) }))
  router.handle(mcpRestart, async ({ serverId }) => ({ server: await mcp.restartServer(serverId) }))
  router.handle(mcpOAuthState, async ({ serverId }) => ({ oauth: await mcp.oauthState(serverId) }))
  router.handle(mcpOAuthSignOut, ({ serverId }) => mcp.oauthSignOut(serverId))
  router.handle(mcpListTools, ({ serverId }) => ({ tools: mcp.listToolViews(serverId) }))
  router.handle(mcpCallTool, async ({ serverId, toolName, args, allowOnce }) => ({
    result: await mcp.callToolChecked(serverId, toolName, args, { allowOnce: allowOnce === true })
  }))
  router.handle(mcpListPrompts, ({ serverId, query }) => ({ prompts: mcp.listPrompts(serverId, query) }))
  router.handle(mcpComplete, async (request) => ({ completion: await mcp.complete(request) }))
  router.handle(mcpGetPrompt, async ({ serverId, name, args }) => ({
    prompt: await mcp.getPrompt(serverId, name, args)
  }))
  router.handle(mcpListResources, ({ serverId, query }) => mcp.listResources(serverId, query))
  router.handle(mcpReadResource, async ({ serverId, uri }) => ({
    contents: await mcp.readResource(serverId, uri)
  }))
  router.handle(mcpImportJson, ({ json }) => mcp.importJson(json))
  router.handle(mcpExportJson, async ({ includeSecrets }) => ({
    json: await mcp.exportJson({ includeSecrets })
  }))
  router.handle(mcpAnswerElicitation, ({ requestId, answer }) => {
    mcp.answerElicitation(requestId, answer)
    return { answered: true as const }
  })
  router.handle(mcpAnswerSampling, ({ requestId, decision }) => {
    mcp.answerSampling(requestId, decision)
    return { answered: true as const }
  })
}
