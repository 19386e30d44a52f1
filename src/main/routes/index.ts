import { Router } from '../bridge/router'
import type { Presenters } from '../presenter'
import { registerAppRoutes } from './app'
import { registerConfigRoutes } from './config'
import { registerProviderRoutes } from './providers'
import { registerSessionRoutes } from './sessions'
import { registerTapeRoutes } from './tape'
import { registerPermissionRoutes } from './permissions'
import { registerAgentToolRoutes } from './agentTools'
import { registerMcpRoutes } from './mcp'
import { registerMcpToolPinRoutes } from './mcpToolPins'
import { registerMcpRegistryRoutes } from './mcpRegistry'
import { registerChatRoutes } from './chat'
import { registerCheckpointRoutes } from './checkpoints'
import { registerCommandPreviewRoutes } from './commandPreview'
import { registerAgentFeatureRoutes } from './agentFeatures'
import { registerSubagentRoutes } from './subagents'
import { registerAcpRoutes } from './acp'
import { registerAttachmentRoutes } from './attachments'
import { registerLibraryRoutes } from './library'
import { registerDataRoutes } from './data'
import { registerDraftRoutes } from './drafts'
import { registerChatFindRoutes } from './chatFind'
import { registerNetworkRoutes } from './network'
import { registerWebSearchRoutes } from './webSearch'
import { registerKnowledgeRoutes } from './knowledge'
import { registerCompareRoutes } from './compare'

/** Builds the one router both transports share. Each domain adds its register call here. */
export function createRouter(
  presenters: Presenters,
  log?: (message: string, error?: unknown) => void
): Router {
  // A write the disk or the file's permissions refused reaches the user as the storage fault it is.
  const router = new Router(log, (error) => presenters.storage.recognize(error))
  registerAppRoutes(router, presenters)
  registerConfigRoutes(router, presenters)
  registerProviderRoutes(router, presenters)
  registerSessionRoutes(router, presenters)
  registerTapeRoutes(router, presenters)
  registerPermissionRoutes(router, presenters)
  registerAgentToolRoutes(router, presenters)
  registerMcpRoutes(router, presenters)
  registerMcpToolPinRoutes(router, presenters)
  registerMcpRegistryRoutes(router, presenters)
  registerChatRoutes(router, presenters)
  registerCheckpointRoutes(router, presenters)
  registerCommandPreviewRoutes(router, presenters)
  registerAgentFeatureRoutes(router, presenters)
  registerSubagentRoutes(router, presenters)
  registerAcpRoutes(router, presenters)
  registerAttachmentRoutes(router, presenters)
  registerLibraryRoutes(router, presenters)
  registerDataRoutes(router, presenters)
  registerDraftRoutes(router, presenters)
  registerChatFindRoutes(router, presenters)
  registerNetworkRoutes(router, presenters)
  registerWebSearchRoutes(router, presenters)
  registerKnowledgeRoutes(router, presenters)
  registerCompareRoutes(router, presenters)
  return router
}
