import type { EventSink } from '../../bridge/events'
import { AgentRuntimePresenter } from '../agentRuntimePresenter'
import { modelLimitsFrom } from '../agentRuntimePresenter/modelLimits'
import type { AcpPresenter } from '../acpPresenter'
import { AcpChatTurns } from '../acpPresenter/chatTurns'
import type { AttachmentPresenter } from '../attachmentPresenter'
import type { ConfigPresenter } from '../configPresenter'
import type { LibraryPresenter } from '../libraryPresenter'
import type { LlmProviderPresenter } from '../llmProviderPresenter'
import type { PermissionPresenter } from '../permission'
import type { SessionPresenter } from '../sessionPresenter'
import type { SessionAgentStateStore } from '../sessionPresenter/agentState'
import { newChatWorkspace, type Workspaces } from '../sessionPresenter/workspaces'
import type { SqlitePresenter } from '../sqlitePresenter'
import type { StorageGuard } from '../sqlitePresenter/storageGuard'
import type { TapePresenter } from '../tapePresenter'
import type { ToolPresenter } from '../toolPresenter'
import type { WebPresenter } from '../webPresenter'

/**
 * The chat loop: provider streams through the provider presenter, tool calls through the tools,
 * agent chats through ACP; a new chat starts from the library's assistant or the defaults, in
 * the folder Settings names or a scratch one.
 */
export function createAgentRuntime(parts: {
  sqlite: SqlitePresenter
  storage: StorageGuard
  sessions: SessionPresenter
  tape: TapePresenter
  llmProviders: LlmProviderPresenter
  tools: ToolPresenter
  permissions: PermissionPresenter
  acp: AcpPresenter
  events: EventSink
  config: ConfigPresenter
  attachments: AttachmentPresenter
  library: LibraryPresenter
  web: Pick<WebPresenter, 'settings'>
  agentState: SessionAgentStateStore
  workspaces: Workspaces
  log: (message: string) => void
}): AgentRuntimePresenter {
  const { llmProviders, config, library, agentState, workspaces } = parts
  return new AgentRuntimePresenter({
    sqlite: parts.sqlite,
    storage: parts.storage,
    sessions: parts.sessions,
    tape: parts.tape,
    llm: {
      coreStream: (request, signal) => llmProviders.coreStream(request, signal),
      getDefaultModel: () => llmProviders.getDefaultModel(),
      modelLimits: modelLimitsFrom(llmProviders),
      hasNativeSearch: (providerId, modelId) => llmProviders.hasNativeSearch(providerId, modelId)
    },
    webSearchMode: () => parts.web.settings().mode,
    tools: parts.tools,
    permissions: parts.permissions,
    // A chat whose model is an ACP agent: its turns run through the agent.
    agentTurns: new AcpChatTurns({
      acp: parts.acp,
      interactions: parts.sessions.interactions,
      permissions: parts.permissions,
      tape: parts.tape,
      attachments: () => parts.attachments.reader(),
      log: parts.log
    }),
    events: parts.events,
    log: parts.log,
    autoTitle: () => config.getSettings().autoTitle,
    attachments: parts.attachments,
    newChatSetup: (assistantId) => {
      const start = library.chatStart(assistantId)
      const assistant = start.assistant
      return {
        model: start.model,
        generationSettings: start.generationSettings,
        apply: assistant
          ? (sessionId) => {
              agentState.update(sessionId, { disabledTools: assistant.disabledTools })
              agentState.setDisabledMcpServers(sessionId, assistant.disabledMcpServers)
            }
          : undefined
      }
    },
    workspaces: {
      forNewChat: (requested) =>
        newChatWorkspace(requested, config.getSettings().defaultWorkspaceDir, workspaces),
      ensure: (path) => workspaces.ensure(path)
    }
  })
}
