import { sessionsUpdated } from '@shared/contracts/events/sessions.events'
import type { GenerationPatch } from '@shared/contracts/routes/sessions.routes'
import { AppError } from '@shared/errors'
import { isWiderMode } from '@shared/types/permission'
import { GenerationSettings, type SessionRecord } from '@shared/types/session'
import type { ProviderView } from '@shared/types/provider'
import type { EventSink } from '../../bridge/events'
import type { SqlitePresenter } from '../sqlitePresenter'
import type { SessionAgentStateStore } from './agentState'
import type { AgentToolManager } from '../toolPresenter/agentTools/agentToolManager'
import type { ChatSettingsPatch, ChatSettingsPort, ChatSettingsView } from '../toolPresenter/runtimePorts'
import type { SessionPresenter } from './index'

export interface ModelChatSettingsDeps {
  sqlite: Pick<SqlitePresenter, 'transaction'>
  sessions: Pick<SessionPresenter, 'require' | 'updateSettings'>
  state: Pick<SessionAgentStateStore, 'get' | 'update'>
  providers: () => Promise<ProviderView[]>
  /** The built-in tools' registry (built before the tool presenter, which runs them). */
  agentTools: Pick<AgentToolManager, 'catalog'>
  events: EventSink
}

/**
 * A chat's settings through the model's door (the `deepchat_settings_*` tools): it may only
 * narrow the permission mode, switch built-in tools it can name, pick an enabled model and set
 * temperature and system prompt. Built before the tools, whose runtime port carries it; the
 * user's door (SessionSettings) is built after them, as it shows which tools a chat can have.
 */
export class ModelChatSettings {
  constructor(private readonly deps: ModelChatSettingsDeps) {}

  async read(sessionId: string): Promise<ChatSettingsView> {
    const session = this.deps.sessions.require(sessionId)
    const state = this.deps.state.get(sessionId)
    const providers = await this.deps.providers()
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

  async update(sessionId: string, patch: ChatSettingsPatch): Promise<ChatSettingsView> {
    const current = await this.read(sessionId)
    const session = this.deps.sessions.require(sessionId) // after the await: nothing concurrent is overwritten
    const { model } = patch
    if (model && !current.availableModels.some((m) => sameModel(m, model))) {
      throw new AppError(
        'invalid_model',
        `Model ${model.providerId}/${model.modelId} is not an enabled model; pick one of availableModels.`
      )
    }
    if (patch.permissionMode && isWiderMode(patch.permissionMode, session.permissionMode)) {
      throw new AppError(
        'invalid_permission_mode',
        `The permission mode can only be narrowed (it is ${session.permissionMode}).`
      )
    }
    const known = new Set(this.deps.agentTools.catalog().map((t) => t.name))
    const unknown = [...(patch.disabledTools ?? []), ...(patch.enabledTools ?? [])].filter(
      (n) => !known.has(n)
    )
    if (unknown.length) throw new AppError('unknown_tool', `No built-in tool named ${unknown.join(', ')}.`)
    const generation = generationAfter(session, patch)

    this.deps.sqlite.transaction(() => {
      this.deps.sessions.updateSettings(sessionId, {
        ...(model ? { providerId: model.providerId, modelId: model.modelId } : {}),
        ...(patch.permissionMode ? { permissionMode: patch.permissionMode } : {}),
        generationSettings: generation
      })
      if (patch.disabledTools || patch.enabledTools) {
        this.deps.state.update(sessionId, {
          disabledTools: patch.disabledTools ?? current.disabledTools,
          enabledTools: patch.enabledTools ?? current.enabledTools
        })
      }
    })
    this.deps.events.emit(sessionsUpdated, { sessionIds: [sessionId], reason: 'updated' })
    return this.read(sessionId)
  }

  /** The door as the tools' runtime port carries it. */
  port(): ChatSettingsPort {
    return {
      read: (sessionId) => this.read(sessionId),
      update: (sessionId, patch) => this.update(sessionId, patch)
    }
  }
}

/** The session's generation settings with the model's temperature and system prompt applied. */
function generationAfter(session: SessionRecord, patch: ChatSettingsPatch): GenerationSettings {
  return generationWith(session.generationSettings, {
    ...(patch.temperature !== undefined ? { temperature: patch.temperature } : {}),
    ...(patch.systemPrompt !== undefined ? { systemPrompt: patch.systemPrompt || null } : {})
  })
}

/** Settings with a patch applied: null (or a blank system prompt) clears a value. */
export function generationWith(current: GenerationSettings, patch: GenerationPatch): GenerationSettings {
  const settings: Record<string, unknown> = { ...current }
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue
    settings[key] = value === null || (key === 'systemPrompt' && value === '') ? undefined : value
  }
  const generation = GenerationSettings.safeParse(settings)
  if (!generation.success)
    throw new AppError(
      'invalid_setting',
      `Invalid settings: ${generation.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`
    )
  return generation.data
}

export function sameModel(
  a: { providerId: string; modelId: string },
  b: { providerId: string; modelId: string }
) {
  return a.providerId === b.providerId && a.modelId === b.modelId
}

export function enabledModels(providers: ProviderView[]): { providerId: string; modelId: string }[] {
  return providers
    .filter((p) => p.enabled)
    .flatMap((p) => p.models.filter((m) => m.enabled).map((m) => ({ providerId: p.id, modelId: m.id })))
}
