import { homedir } from 'node:os'
import { join } from 'node:path'
import type { EventSink } from '../../bridge/events'
import type { Platform } from '../../platform/types'
import { AcpPresenter } from '../acpPresenter'
import type { ConfigPresenter } from '../configPresenter'
import type { ProcessGroupRegistry } from '../hygiene/processGroups'
import type { McpPresenter } from '../mcpPresenter'
import { CommandPermissionService, FilePermissionService, type PermissionPresenter } from '../permission'
import type { AppDataBoundary } from '../permission/boundary'
import type { Sandbox } from '../sandbox'
import type { SessionAgentStateStore } from '../sessionPresenter/agentState'
import type { SqlitePresenter } from '../sqlitePresenter'
import { BackgroundProcessManager } from '../toolPresenter/agentTools/processManager'

/**
 * ACP agents get their own terminal process manager (their commands are not the chat's `exec`
 * processes), the same permission services and gate as tools, and the chat's enabled MCP servers.
 */
export function createAcpPresenter(parts: {
  platform: Platform
  sqlite: SqlitePresenter
  config: ConfigPresenter
  events: EventSink
  shellEnv: () => Promise<Record<string, string>>
  groups: ProcessGroupRegistry
  sandbox: Sandbox
  permissions: PermissionPresenter
  mcp: McpPresenter
  agentState: SessionAgentStateStore
  appData: AppDataBoundary
  log: (message: string) => void
}): AcpPresenter {
  const { platform, shellEnv, groups, sandbox, log } = parts
  return new AcpPresenter({
    config: parts.config,
    sqlite: parts.sqlite,
    events: parts.events,
    shellEnv,
    clientInfo: { name: platform.appName, version: platform.appVersion },
    files: new FilePermissionService(homedir(), { appData: parts.appData }),
    commands: new CommandPermissionService({ appData: parts.appData }),
    processes: new BackgroundProcessManager({
      baseEnv: shellEnv,
      allowedVariables: () => parts.config.getSettings().allowedEnvVariables,
      sandbox,
      groups,
      log
    }),
    sandbox,
    sessionDataRoot: join(platform.userDataDir, 'sessions'),
    gate: parts.permissions,
    groups,
    // The servers this chat has on (its Tools switches) that are healthy now.
    mcpServersForAgents: async (chatSessionId) => {
      const off = new Set(parts.agentState.disabledMcpServers(chatSessionId))
      return (await parts.mcp.runningServerConfigs()).filter((s) => !off.has(s.id))
    },
    log
  })
}
