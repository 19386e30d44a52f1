import { sessionsUpdated } from '@shared/contracts/events/sessions.events'
import { GenerationSettings, type SessionRecord } from '@shared/types/session'
import type { ProviderView } from '@shared/types/provider'
import type { EventSink } from '../../bridge/events'
import type { SqlitePresenter } from '../sqlitePresenter'
import type { SessionAgentStateStore } from './sessionAgentState'
import type { SessionSettingsPatch, SessionSettingsPort, SessionSettingsView } from '../toolPresenter/runtimePorts'

export interface SessionSettingsPortDeps {
  sqlite: Pick<SqlitePresenter, 'db' | 'transaction'>
  sessions: { require(sessionId: string): SessionRecord }
  state: Pick<SessionAgentStateStore, 'get' | 'update'>
  providers: () => Promise<ProviderView[]>
  /** Every built-in tool name (a switch for anything else is a mistake). */
  knownTools: () => string[]
  events: EventSink
  now?: () => number
}

const MODE_RANK = { default: 0, accept_edits: 1, full_access: 2 } as const

/** Reads and changes one session's model, generation settings, permission mode and tool switches. */
export function createSessionSettingsPort(deps: SessionSettingsPortDeps): SessionSettingsPort {
  const now = deps.now ?? Date.now

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
      availableModels: providers.filter((p) => p.enabled).flatMap((p) => p.models.filter((m) => m.enabled).map((m) => ({ providerId: p.id, modelId: m.id })))
    }
  }

  async function update(sessionId: string, patch: SessionSettingsPatch): Promise<SessionSettingsView> {
    const session = deps.sessions.require(sessionId)
    const current = await read(sessionId)
    if (patch.model && !current.availableModels.some((m) => m.providerId === patch.model!.providerId && m.modelId === patch.model!.modelId)) {
      throw new Error(`Model ${patch.model.providerId}/${patch.model.modelId} is not an enabled model; pick one of availableModels.`)
    }
    if (patch.permissionMode && MODE_RANK[patch.permissionMode] > MODE_RANK[session.permissionMode]) {
      throw new Error(`The permission mode can only be narrowed (it is ${session.permissionMode}).`)
    }
    const known = new Set(deps.knownTools())
    const unknown = [...(patch.disabledTools ?? []), ...(patch.enabledTools ?? [])].filter((n) => !known.has(n))
    if (unknown.length) throw new Error(`No built-in tool named ${unknown.join(', ')}.`)

    const settings: Record<string, unknown> = { ...session.generationSettings }
    if (patch.temperature !== undefined) settings.temperature = patch.temperature ?? undefined
    if (patch.systemPrompt !== undefined) settings.systemPrompt = patch.systemPrompt || undefined
    const generation = GenerationSettings.safeParse(settings)
    if (!generation.success) throw new Error(`Invalid settings: ${generation.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)

    deps.sqlite.transaction(() => {
      deps.sqlite.db
        .prepare(
          `UPDATE sessions SET provider_id = @providerId, model_id = @modelId, permission_mode = @mode,
             generation_settings_json = @settings, updated_at = @at WHERE id = @id`
        )
        .run({
          id: sessionId,
          providerId: patch.model?.providerId ?? session.providerId,
          modelId: patch.model?.modelId ?? session.modelId,
          mode: patch.permissionMode ?? session.permissionMode,
          settings: JSON.stringify(generation.data),
          at: now()
        })
      if (patch.disabledTools || patch.enabledTools) {
        deps.state.update(sessionId, { disabledTools: patch.disabledTools ?? current.disabledTools, enabledTools: patch.enabledTools ?? current.enabledTools })
      }
    })
    deps.events.emit(sessionsUpdated, { sessionIds: [sessionId], reason: 'updated' })
    return read(sessionId)
  }

  return { read, update }
}
