import { homedir } from 'node:os'
import { join } from 'node:path'
import { mcpToolsDeferred } from '@shared/contracts/events/mcp.events'
import type { EventSink } from '../../bridge/events'
import { LoopRuntimePort } from '../agentRuntimePresenter/runtimePort'
import { createImagePort, createMemoryPort } from '../agentRuntimePresenter/featurePorts'
import type { WebPresenter } from '../webPresenter'
import type { KnowledgeToolPort } from '../knowledgePresenter'
import { createTapeToolPort, extendRuntimePort } from '../agentRuntimePresenter/tapeToolPort'
import type { ConfigPresenter } from '../configPresenter'
import type { ProcessGroupRegistry } from '../hygiene/processGroups'
import type { LlmProviderPresenter } from '../llmProviderPresenter'
import type { McpPresenter } from '../mcpPresenter'
import type { MemoryPresenter } from '../memoryPresenter'
import { CommandPermissionService, FilePermissionService, type PermissionPresenter } from '../permission'
import type { AppDataBoundary } from '../permission/boundary'
import type { Sandbox } from '../sandbox'
import type { SessionPresenter } from '../sessionPresenter'
import type { SessionAgentStateStore } from '../sessionPresenter/agentState'
import type { SkillPresenter } from '../skillPresenter'
import type { SubagentPresenter } from '../subagentPresenter'
import type { ChatSettingsPort } from '../toolPresenter/runtimePorts'
import { createSubagentPort } from '../subagentPresenter/port'
import type { TapePresenter } from '../tapePresenter'
import { ToolPresenter } from '../toolPresenter'
import { BackgroundProcessManager } from '../toolPresenter/agentTools/processManager'
import type { AgentToolManager } from '../toolPresenter/agentTools/agentToolManager'
import { CommandPreviews, type PreviewTarget } from '../commandPreview'
import { AppError } from '@shared/errors'
import { ActionBlockData } from '@shared/types/blocks'

export interface ToolParts {
  /** Web search and page reads (web_search, web_fetch). */
  web?: WebPresenter
  /** The chats' knowledge bases (knowledge_search). */
  knowledge?: KnowledgeToolPort
  userDataDir: string
  events: EventSink
  config: ConfigPresenter
  llmProviders: LlmProviderPresenter
  tape: TapePresenter
  sessions: SessionPresenter
  permissions: PermissionPresenter
  mcp: McpPresenter
  agentState: SessionAgentStateStore
  memory: MemoryPresenter
  skills: SkillPresenter
  subagents: SubagentPresenter
  /** The built-in tools' registry (built first: a chat's settings read it too). */
  agentTools: AgentToolManager
  /** The model's door to a chat's settings (the `deepchat_settings_*` tools). */
  chatSettings: ChatSettingsPort
  sandbox: Sandbox
  shellEnv: () => Promise<Record<string, string>>
  groups: ProcessGroupRegistry
  appData: AppDataBoundary
  log: (message: string) => void
}

export interface ToolDomain {
  tools: ToolPresenter
  /** The chat loop's side of the tools' runtime port; it announces plans (`onPlanPublished`). */
  runtimePort: LoopRuntimePort
  /** One file boundary for the tools and for what approval cards may preview. */
  files: FilePermissionService
  /** Commands waiting for approval, run first on a copy of the workspace (the card shows what they would do). */
  commandPreviews: CommandPreviews
}

/**
 * The flat tool list and the runtime port its built-in tools reach the app through: plans and
 * file snapshots (the chat loop's), the tape, memory, images, skills, subagents and the model's
 * door to the chat's settings.
 */
export function createToolPresenter(parts: ToolParts): ToolDomain {
  const { config, sessions, agentState, tape, log } = parts
  const tapeOf = (sessionId: string) => sessions.require(sessionId).tapeId
  const runtimePort = new LoopRuntimePort({ events: parts.events, tape, tapeOf, log })
  const files = new FilePermissionService(homedir(), { appData: parts.appData })
  const commandPreviews = new CommandPreviews({
    root: join(parts.userDataDir, 'command-previews'),
    baseEnv: parts.shellEnv,
    allowedVariables: () => config.getSettings().allowedEnvVariables,
    appData: parts.appData,
    lookup: (sessionId, interactionId) => pendingCommandCall(sessions, sessionId, interactionId),
    log
  })
  // A denied or cancelled request's preview is dropped with its copy at once.
  sessions.onInteractionsChanged(({ sessionId }) =>
    commandPreviews.settle(sessionId, (id) => {
      try {
        return sessions.interactions.require(id).status
      } catch {
        return null
      }
    })
  )
  const tools = new ToolPresenter({
    commandPreviews,
    agentTools: parts.agentTools,
    mcp: parts.mcp,
    mcpAutoApprove: (serverId, toolName) => parts.mcp.isAutoApproved(serverId, toolName),
    disabledMcpServers: (sessionId) => agentState.disabledMcpServers(sessionId),
    onToolsDeferred: (info) => parts.events.emit(mcpToolsDeferred, info),
    toolSearchLimits: () => ({ maxTools: config.getSettings().mcpToolSearchThreshold }),
    // exec sees the allowlisted environment, with the login shell's PATH (nvm, Homebrew, ...).
    processes: new BackgroundProcessManager({
      baseEnv: parts.shellEnv,
      allowedVariables: () => config.getSettings().allowedEnvVariables,
      sandbox: parts.sandbox,
      groups: parts.groups,
      log
    }),
    permissions: parts.permissions,
    runtime: extendRuntimePort(runtimePort, {
      ...createTapeToolPort({
        tape,
        tapeOf,
        hiddenMessageIds: (sessionId) => sessions.branches.tree(sessionId).hiddenIds()
      }),
      toolState: (sessionId) => agentState.get(sessionId),
      memory: createMemoryPort(parts.memory),
      ...createImagePort(config, parts.llmProviders),
      ...(parts.web ? { web: parts.web } : {}),
      ...(parts.knowledge ? { knowledge: parts.knowledge } : {}),
      skills: parts.skills,
      subagents: createSubagentPort(parts.subagents),
      sessionSettings: parts.chatSettings
    }),
    sessionDataRoot: join(parts.userDataDir, 'sessions'),
    files,
    commands: new CommandPermissionService({ appData: parts.appData }),
    sandbox: parts.sandbox,
    log
  })
  return { tools, runtimePort, files, commandPreviews }
}

/** The pending exec call an approval card shows, from its interaction and the call's block. */
function pendingCommandCall(
  sessions: SessionPresenter,
  sessionId: string,
  interactionId: string
): PreviewTarget {
  const interaction = sessions.interactions.require(interactionId)
  if (interaction.sessionId !== sessionId)
    throw new AppError('not_found', `Interaction ${interactionId} is not in session ${sessionId}`)
  if (interaction.status !== 'pending')
    throw new AppError(
      'interaction_not_pending',
      `Interaction ${interactionId} was already ${interaction.status}`
    )
  const action = ActionBlockData.safeParse(interaction.request)
  if (!action.success || action.data.actionType !== 'permission' || action.data.request.type !== 'command')
    throw new AppError('invalid_input', `Interaction ${interactionId} is not a command request`)
  const { request, toolCallId } = action.data
  const block = sessions.messages
    .require(interaction.messageId)
    .blocks.find((b) => b.kind === 'tool_call' && b.toolCall.id === toolCallId)
  const params = block?.kind === 'tool_call' ? parseParams(block.toolCall.params) : {}
  return {
    sessionId,
    toolCallId,
    command: request.command ?? '',
    cwd: request.cwd ?? sessions.require(sessionId).workspaceDir,
    workspaceDir: sessions.require(sessionId).workspaceDir,
    background: params.background === true,
    ...(typeof params.timeout_ms === 'number' ? { timeoutMs: params.timeout_ms } : {}),
    writesProtected: [
      ...(request.reasonCodes ?? []),
      ...(request.subCommands ?? []).flatMap((sub) => sub.reasonCodes ?? [])
    ].some((reason) => reason.code.startsWith('protected_') || GIT_WRITES.has(reason.code)),
    tool: request.server === 'agent-filesystem' ? request.tool : `${request.server}/${request.tool}`
  }
}

/** Besides `protected_*`, the classifier's reasons for a git command that writes `.git`. */
const GIT_WRITES = new Set([
  'git_writes_repository',
  'git_config_write',
  'git_reset_hard',
  'git_discards_changes'
])

function parseParams(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}
