import { sessionsUpdated } from '@shared/contracts/events/sessions.events'
import type { SessionSettingsPatch, SessionSettingsView } from '@shared/contracts/routes/sessions.routes'
import { AppError } from '@shared/errors'
import type { McpServerView } from '@shared/types/mcp'
import { isWiderMode, type PermissionMode } from '@shared/types/permission'
import type { SessionRecord } from '@shared/types/session'
import type { ProviderView } from '@shared/types/provider'
import type { EventSink } from '../../bridge/events'
import { Hook } from '../hook'
import type { SqlitePresenter } from '../sqlitePresenter'
import type { SessionAgentStateStore } from './agentState'
import type { AgentToolManager } from '../toolPresenter/agentTools/agentToolManager'
import type { ChatSettingsPatch, ChatSettingsView, SessionToolState } from '../toolPresenter/runtimePorts'
import type { SessionPresenter } from './index'
import { enabledModels, generationWith, sameModel, type ModelChatSettings } from './modelSettings'

export interface SessionSettingsDeps {
  sqlite: Pick<SqlitePresenter, 'transaction'>
  sessions: Pick<SessionPresenter, 'require' | 'updateSettings'>
  state: Pick<SessionAgentStateStore, 'get' | 'update' | 'disabledMcpServers' | 'setDisabledMcpServers'>
  providers: () => Promise<ProviderView[]>
  /** Enabled ACP agents as models (`acp` / agent id): the user may pick one for a chat. */
  agentModels?: () => { providerId: string; modelId: string }[]
  /** The built-in tools' registry. */
  agentTools: Pick<AgentToolManager, 'catalog' | 'get'>
  /** Whether the session can have a built-in tool at all, its switches aside (ToolPresenter, built before). */
  toolAvailable: (sessionId: string, name: string) => boolean
  /** The model's door, built before the tools that carry it. */
  forModel: Pick<ModelChatSettings, 'read' | 'update'>
  mcpServers: () => McpServerView[]
  /** The chat's folder changed (MCP servers it used are told their new roots). */
  workspaceChanged?: (sessionId: string, workspaceDir: string) => void
  /** A folder the user chose, normalised; throws `invalid_workspace` for a missing one or the app's data folder. */
  validateWorkspace: (path: string) => string
  events: EventSink
  log?: (message: string) => void
}

/**
 * One session's settings: model, permission mode, workspace, generation settings and tool / MCP
 * server switches. Two doors with their own rules, side by side:
 * - the user's (`get` / `update`, routes `sessions.getSettings` / `sessions.updateSettings`): may
 *   widen the permission mode (a subagent never beyond its parent), pick the folder, switch servers;
 * - the model's (`readForModel` / `updateForModel`, the `deepchat_settings_*` tools): may only
 *   narrow the permission mode, and sets temperature and system prompt (modelSettings.ts: built
 *   before the tools, while this door, which shows the tools a chat can have, is built after).
 * Everything is checked before anything is written; one `sessions.updated` follows each change.
 */
export class SessionSettings {
  private readonly toolsSwitched: Hook<string>

  constructor(private readonly deps: SessionSettingsDeps) {
    this.toolsSwitched = new Hook('sessionSettings.onToolsSwitched', deps.log)
  }

  /** The user switched a chat's tools or MCP servers (a running turn re-reads its tool list). */
  onToolsSwitched(listener: (sessionId: string) => void): () => void {
    return this.toolsSwitched.on(listener)
  }

  get(sessionId: string): SessionSettingsView {
    const session = this.deps.sessions.require(sessionId)
    const state = this.deps.state.get(sessionId)
    const offServers = new Set(this.deps.state.disabledMcpServers(sessionId))
    return {
      sessionId,
      providerId: session.providerId,
      modelId: session.modelId,
      permissionMode: session.permissionMode,
      workspaceDir: session.workspaceDir,
      workspaceIsScratch: session.workspaceIsScratch,
      tools: this.deps.agentTools.catalog().map((tool) => ({
        name: tool.name,
        group: tool.group,
        readOnly: tool.readOnly,
        // The same switches the tool list reads: off wins, and a diagnostic tool needs switching on.
        enabled:
          !state.disabledTools.includes(tool.name) &&
          (!this.isDiagnostic(tool.name) || state.enabledTools.includes(tool.name)),
        available: this.deps.toolAvailable(sessionId, tool.name)
      })),
      mcpServers: this.deps.mcpServers().map((server) => ({
        id: server.id,
        name: server.name,
        state: server.status.state,
        ...(server.status.lastError ? { lastError: server.status.lastError } : {}),
        serverEnabled: server.enabled,
        enabled: !offServers.has(server.id)
      })),
      generation: session.generationSettings
    }
  }

  async update(sessionId: string, patch: SessionSettingsPatch): Promise<SessionSettingsView> {
    this.deps.sessions.require(sessionId)
    if (patch.model && !(await this.isEnabledModel(patch.model))) {
      throw new AppError(
        'invalid_model',
        `Model ${patch.model.providerId}/${patch.model.modelId} is not an enabled model. Enable it in Settings > Providers or pick another.`
      )
    }
    // Read after the await and write without another: a concurrent change is never overwritten.
    const session = this.deps.sessions.require(sessionId)
    if (patch.permissionMode) this.requireWithinParent(session, patch.permissionMode)
    // null goes back to the chat's scratch folder; a chosen folder must exist and not be app data.
    const workspaceDir = patch.workspaceDir
      ? this.deps.validateWorkspace(patch.workspaceDir)
      : patch.workspaceDir
    const toolState = patch.tools ? this.switchTools(this.deps.state.get(sessionId), patch.tools) : null
    const offServers = patch.mcpServers
      ? this.switchServers(this.deps.state.disabledMcpServers(sessionId), patch.mcpServers)
      : null
    const generation = patch.generation ? generationWith(session.generationSettings, patch.generation) : null

    this.deps.sqlite.transaction(() => {
      this.deps.sessions.updateSettings(sessionId, {
        ...(patch.model ? { providerId: patch.model.providerId, modelId: patch.model.modelId } : {}),
        ...(patch.permissionMode ? { permissionMode: patch.permissionMode } : {}),
        ...(workspaceDir !== undefined ? { workspaceDir } : {}),
        ...(generation ? { generationSettings: generation } : {})
      })
      if (toolState) this.deps.state.update(sessionId, toolState)
      if (offServers) this.deps.state.setDisabledMcpServers(sessionId, offServers)
    })
    if (toolState || offServers) this.toolsSwitched.fire(sessionId)
    if (workspaceDir !== undefined)
      this.deps.workspaceChanged?.(sessionId, this.deps.sessions.require(sessionId).workspaceDir)
    this.deps.events.emit(sessionsUpdated, { sessionIds: [sessionId], reason: 'updated' })
    return this.get(sessionId)
  }

  /** The model's door (ModelChatSettings), for callers that hold the user's. */
  readForModel(sessionId: string): Promise<ChatSettingsView> {
    return this.deps.forModel.read(sessionId)
  }

  updateForModel(sessionId: string, patch: ChatSettingsPatch): Promise<ChatSettingsView> {
    return this.deps.forModel.update(sessionId, patch)
  }

  private async isEnabledModel(model: { providerId: string; modelId: string }): Promise<boolean> {
    const agents = this.deps.agentModels?.() ?? []
    return [...enabledModels(await this.deps.providers()), ...agents].some((m) => sameModel(m, model))
  }

  private requireWithinParent(session: SessionRecord, mode: PermissionMode): void {
    if (!session.parentSessionId) return
    const parent = this.deps.sessions.require(session.parentSessionId)
    if (isWiderMode(mode, parent.permissionMode)) {
      throw new AppError(
        'invalid_permission_mode',
        `A subagent chat cannot have more access than its parent (${parent.permissionMode}).`
      )
    }
  }

  private switchTools(
    state: SessionToolState,
    switches: Record<string, boolean>
  ): Pick<SessionToolState, 'disabledTools' | 'enabledTools'> {
    const known = new Set(this.toolNames())
    const unknown = Object.keys(switches).filter((name) => !known.has(name))
    if (unknown.length) throw new AppError('unknown_tool', `No built-in tool named ${unknown.join(', ')}.`)
    const disabled = new Set(state.disabledTools)
    const enabled = new Set(state.enabledTools)
    for (const [name, on] of Object.entries(switches)) {
      // Diagnostic tools are off unless switched on; every other tool is on unless switched off.
      // Switching one on also lifts an app-wide "off" this chat started with.
      if (this.isDiagnostic(name)) toggle(enabled, name, on)
      if (!this.isDiagnostic(name) || on) toggle(disabled, name, !on)
    }
    return { disabledTools: [...disabled], enabledTools: [...enabled] }
  }

  private switchServers(current: string[], switches: Record<string, boolean>): string[] {
    const known = new Set(this.deps.mcpServers().map((s) => s.id))
    const off = new Set(current)
    for (const [id, on] of Object.entries(switches)) {
      // Switching a since-removed server back on just forgets it; nothing new may be switched off.
      if (!known.has(id) && !(on && off.has(id)))
        throw new AppError('unknown_mcp_server', `There is no MCP server with id ${id}.`)
      toggle(off, id, !on)
    }
    return [...off]
  }

  private toolNames(): string[] {
    return this.deps.agentTools.catalog().map((t) => t.name)
  }

  private isDiagnostic(name: string): boolean {
    return this.deps.agentTools.get(name)?.exposure === 'diagnostic'
  }
}

function toggle(set: Set<string>, value: string, present: boolean): void {
  if (present) set.add(value)
  else set.delete(value)
}
