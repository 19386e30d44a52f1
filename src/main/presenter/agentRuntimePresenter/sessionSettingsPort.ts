import { sessionsUpdated } from '@shared/contracts/events/sessions.events'
import type {
  SessionSettingsPatch as UserSettingsPatch,
  SessionSettingsView as UserSettingsView
} from '@shared/contracts/routes/sessions.routes'
import { AppError } from '@shared/errors'
import type { McpServerView } from '@shared/types/mcp'
import { isWiderMode, type PermissionMode } from '@shared/types/permission'
import { GenerationSettings, type SessionRecord } from '@shared/types/session'
import type { ProviderView } from '@shared/types/provider'
import type { EventSink } from '../../bridge/events'
import type { SqlitePresenter } from '../sqlitePresenter'
import type { SessionPresenter } from '../sessionPresenter'
import type { SessionAgentStateStore } from './sessionAgentState'
import type { AgentToolManager } from '../toolPresenter/agentTools/agentToolManager'
import type {
  SessionSettingsPatch,
  SessionSettingsPort,
  SessionSettingsView,
  SessionToolState
} from '../toolPresenter/runtimePorts'

export interface SessionSettingsPortDeps {
  sqlite: Pick<SqlitePresenter, 'db' | 'transaction'>
  sessions: Pick<SessionPresenter, 'require' | 'updateSettings'>
  state: Pick<SessionAgentStateStore, 'get' | 'update'>
  providers: () => Promise<ProviderView[]>
  /** Every built-in tool name (a switch for anything else is a mistake). */
  knownTools: () => string[]
  events: EventSink
}

/** Reads and changes one session's model, generation settings, permission mode and tool switches. */
export function createSessionSettingsPort(deps: SessionSettingsPortDeps): SessionSettingsPort {
  async function read(sessionId: string): Promise<SessionSettingsView> {
    const session = deps.sessions.require(sessionId)
    const state = deps.state.get(sessionId)
    const providers = await deps.providers()
    return {
      providerId: session.providerId,
      modelId: session.modelId,
      temperature: session.generationSettings.temperature ?? null,
      systemPrompt: session.generationSettings.systemPrompt ?? '',
      permissionMode: session.permissionMode,
      disabledTools: state.disabledTools,
      enabledTools: state.enabledTools,
      availableModels: enabledModels(providers)
    }
  }

  async function update(sessionId: string, patch: SessionSettingsPatch): Promise<SessionSettingsView> {
    const current = await read(sessionId)
    const session = deps.sessions.require(sessionId) // after the await: nothing concurrent is overwritten
    if (
      patch.model &&
      !current.availableModels.some(
        (m) => m.providerId === patch.model!.providerId && m.modelId === patch.model!.modelId
      )
    ) {
      throw new Error(
        `Model ${patch.model.providerId}/${patch.model.modelId} is not an enabled model; pick one of availableModels.`
      )
    }
    if (patch.permissionMode && isWiderMode(patch.permissionMode, session.permissionMode)) {
      throw new Error(`The permission mode can only be narrowed (it is ${session.permissionMode}).`)
    }
    const known = new Set(deps.knownTools())
    const unknown = [...(patch.disabledTools ?? []), ...(patch.enabledTools ?? [])].filter(
      (n) => !known.has(n)
    )
    if (unknown.length) throw new Error(`No built-in tool named ${unknown.join(', ')}.`)

    const settings: Record<string, unknown> = { ...session.generationSettings }
    if (patch.temperature !== undefined) settings.temperature = patch.temperature ?? undefined
    if (patch.systemPrompt !== undefined) settings.systemPrompt = patch.systemPrompt || undefined
    const generation = GenerationSettings.safeParse(settings)
    if (!generation.success)
      throw new Error(
        `Invalid settings: ${generation.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`
      )

    deps.sqlite.transaction(() => {
      deps.sessions.updateSettings(sessionId, {
        ...(patch.model ? { providerId: patch.model.providerId, modelId: patch.model.modelId } : {}),
        ...(patch.permissionMode ? { permissionMode: patch.permissionMode } : {}),
        generationSettings: generation.data
      })
      if (patch.disabledTools || patch.enabledTools) {
        deps.state.update(sessionId, {
          disabledTools: patch.disabledTools ?? current.disabledTools,
          enabledTools: patch.enabledTools ?? current.enabledTools
        })
      }
    })
    deps.events.emit(sessionsUpdated, { sessionIds: [sessionId], reason: 'updated' })
    return read(sessionId)
  }

  return { read, update }
}

/** What the chat window's controls need besides the port's deps. */
export interface UserSessionSettingsDeps extends Omit<SessionSettingsPortDeps, 'state' | 'knownTools'> {
  state: Pick<SessionAgentStateStore, 'get' | 'update' | 'disabledMcpServers' | 'setDisabledMcpServers'>
  agentTools: Pick<AgentToolManager, 'catalog' | 'get'>
  mcpServers: () => McpServerView[]
  /** A running turn re-reads its tool list before its next provider request. */
  toolsChanged: (sessionId: string) => void
  /** A folder the user chose, normalised; throws `invalid_workspace` for a missing one or the app's data folder. */
  validateWorkspace: (path: string) => string
}

export interface UserSessionSettings {
  get(sessionId: string): UserSettingsView
  update(sessionId: string, patch: UserSettingsPatch): Promise<UserSettingsView>
}

/**
 * The user's side of a session's settings (the chat input's pickers and tools popover). Unlike
 * the model's settings tool, the user may widen the permission mode; a subagent still never gets
 * more than its parent. Everything is checked before anything is written.
 */
export function createUserSessionSettings(deps: UserSessionSettingsDeps): UserSessionSettings {
  function get(sessionId: string): UserSettingsView {
    const session = deps.sessions.require(sessionId)
    const state = deps.state.get(sessionId)
    const offServers = new Set(deps.state.disabledMcpServers(sessionId))
    return {
      sessionId,
      providerId: session.providerId,
      modelId: session.modelId,
      permissionMode: session.permissionMode,
      workspaceDir: session.workspaceDir,
      workspaceIsScratch: session.workspaceIsScratch,
      tools: deps.agentTools.catalog().map((tool) => ({
        name: tool.name,
        group: tool.group,
        readOnly: tool.readOnly,
        enabled: isDiagnostic(tool.name)
          ? state.enabledTools.includes(tool.name)
          : !state.disabledTools.includes(tool.name)
      })),
      mcpServers: deps.mcpServers().map((server) => ({
        id: server.id,
        name: server.name,
        state: server.status.state,
        ...(server.status.lastError ? { lastError: server.status.lastError } : {}),
        serverEnabled: server.enabled,
        enabled: !offServers.has(server.id)
      }))
    }
  }

  function isDiagnostic(name: string): boolean {
    return deps.agentTools.get(name)?.exposure === 'diagnostic'
  }

  async function update(sessionId: string, patch: UserSettingsPatch): Promise<UserSettingsView> {
    deps.sessions.require(sessionId)
    if (patch.model) await requireEnabledModel(patch.model)
    // Read after the await and write without another: a concurrent change is never overwritten.
    const session = deps.sessions.require(sessionId)
    if (patch.permissionMode) requireWithinParent(session, patch.permissionMode)
    // null goes back to the chat's scratch folder; a chosen folder must exist and not be app data.
    const workspaceDir = patch.workspaceDir ? deps.validateWorkspace(patch.workspaceDir) : patch.workspaceDir
    const toolState = patch.tools ? switchTools(deps.state.get(sessionId), patch.tools) : null
    const offServers = patch.mcpServers
      ? switchServers(deps.state.disabledMcpServers(sessionId), patch.mcpServers)
      : null

    deps.sqlite.transaction(() => {
      deps.sessions.updateSettings(sessionId, {
        ...(patch.model ? { providerId: patch.model.providerId, modelId: patch.model.modelId } : {}),
        ...(patch.permissionMode ? { permissionMode: patch.permissionMode } : {}),
        ...(workspaceDir !== undefined ? { workspaceDir } : {})
      })
      if (toolState) deps.state.update(sessionId, toolState)
      if (offServers) deps.state.setDisabledMcpServers(sessionId, offServers)
    })
    if (toolState || offServers) deps.toolsChanged(sessionId)
    deps.events.emit(sessionsUpdated, { sessionIds: [sessionId], reason: 'updated' })
    return get(sessionId)
  }

  async function requireEnabledModel(model: { providerId: string; modelId: string }): Promise<void> {
    const available = enabledModels(await deps.providers())
    if (!available.some((m) => m.providerId === model.providerId && m.modelId === model.modelId)) {
      throw new AppError(
        'invalid_model',
        `Model ${model.providerId}/${model.modelId} is not an enabled model. Enable it in Settings > Providers or pick another.`
      )
    }
  }

  function requireWithinParent(session: SessionRecord, mode: PermissionMode): void {
    if (!session.parentSessionId) return
    const parent = deps.sessions.require(session.parentSessionId)
    if (isWiderMode(mode, parent.permissionMode)) {
      throw new AppError(
        'invalid_permission_mode',
        `A subagent chat cannot have more access than its parent (${parent.permissionMode}).`
      )
    }
  }

  function switchTools(
    state: SessionToolState,
    switches: Record<string, boolean>
  ): Pick<SessionToolState, 'disabledTools' | 'enabledTools'> {
    const known = new Set(deps.agentTools.catalog().map((t) => t.name))
    const unknown = Object.keys(switches).filter((name) => !known.has(name))
    if (unknown.length) throw new AppError('unknown_tool', `No built-in tool named ${unknown.join(', ')}.`)
    const disabled = new Set(state.disabledTools)
    const enabled = new Set(state.enabledTools)
    for (const [name, on] of Object.entries(switches)) {
      // Diagnostic tools are off unless switched on; every other tool is on unless switched off.
      if (isDiagnostic(name)) toggle(enabled, name, on)
      else toggle(disabled, name, !on)
    }
    return { disabledTools: [...disabled], enabledTools: [...enabled] }
  }

  function switchServers(current: string[], switches: Record<string, boolean>): string[] {
    const known = new Set(deps.mcpServers().map((s) => s.id))
    const off = new Set(current)
    for (const [id, on] of Object.entries(switches)) {
      // Switching a since-removed server back on just forgets it; nothing new may be switched off.
      if (!known.has(id) && !(on && off.has(id)))
        throw new AppError('unknown_mcp_server', `There is no MCP server with id ${id}.`)
      toggle(off, id, !on)
    }
    return [...off]
  }

  return { get, update }
}

function toggle(set: Set<string>, value: string, present: boolean): void {
  if (present) set.add(value)
  else set.delete(value)
}

function enabledModels(providers: ProviderView[]): { providerId: string; modelId: string }[] {
  return providers
    .filter((p) => p.enabled)
    .flatMap((p) => p.models.filter((m) => m.enabled).map((m) => ({ providerId: p.id, modelId: m.id })))
}
