import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { SessionSettingsPatch } from '@shared/contracts/routes/sessions.routes'
import type { Assistant } from '@shared/types/library'
import { loadDraftOptions, requestedWorkspace, saveDraftOptions, type ChatOptions } from './lib/chatOptions'
import { ACP_PROVIDER_ID } from '@shared/types/acp'
import { useAcpStore } from './acp'
import { useChatStore, type NewSessionOptions } from './chat'
import { useProvidersStore } from './providers'
import { useSessionsStore } from './sessions'
import { useSettingsStore } from './settings'

/**
 * A chat's options — model, permission mode, folder, assistant, instructions and parameters —
 * from one place. On the new-chat page: what the next chat starts with (the user's last choice,
 * kept across reloads, else Settings' defaults, else the first enabled model). On an open chat:
 * that chat's own settings once read (its record meanwhile); a change applies from its next request.
 */
export const useChatOptionsStore = defineStore('chatOptions', () => {
  const chat = useChatStore()
  const sessions = useSessionsStore()
  const providers = useProvidersStore()
  const settings = useSettingsStore()
  const acp = useAcpStore()
  const draft = ref<ChatOptions>({
    providerId: null,
    modelId: null,
    permissionMode: 'default',
    workspaceDir: ''
  })

  const sessionSettings = computed(() =>
    chat.sessionId && chat.settings?.sessionId === chat.sessionId ? chat.settings : null
  )
  /** An open chat whose settings are not read yet: its pickers wait. */
  const waiting = computed(() => Boolean(chat.sessionId) && !sessionSettings.value)
  const current = computed<ChatOptions>(() => {
    const s = sessionSettings.value
    if (s)
      return {
        providerId: s.providerId,
        modelId: s.modelId,
        permissionMode: s.permissionMode,
        workspaceDir: s.workspaceDir,
        workspaceIsScratch: s.workspaceIsScratch,
        generation: s.generation
      }
    const record = chat.sessionId ? sessions.byId.get(chat.sessionId) : undefined
    if (record)
      return {
        providerId: record.providerId,
        modelId: record.modelId,
        permissionMode: record.permissionMode,
        workspaceDir: record.workspaceDir,
        workspaceIsScratch: record.workspaceIsScratch
      }
    return draft.value
  })
  /** A new chat starts with the composer's choice, else Settings' defaults (main applies the same rule). */
  const draftGeneration = computed(
    () => draft.value.generation ?? settings.settings?.defaultGenerationSettings ?? {}
  )

  function setDraft(patch: Partial<ChatOptions>): void {
    draft.value = { ...draft.value, ...patch }
    saveDraftOptions(draft.value)
  }

  let defaultsChosen: Promise<void> | undefined

  /** Reads providers and settings, then picks the new chat's model, mode and folder. */
  function loadDefaults(): Promise<void> {
    defaultsChosen = (async () => {
      // Agents too: a kept or just-picked agent is one of the models a chat can start with.
      await Promise.all([
        providers.load(),
        settings.settings ? null : settings.load(),
        acp.ensureLoaded().catch(() => undefined)
      ])
      if (!providers.error) chooseDraftModel()
    })()
    return defaultsChosen
  }

  function chooseDraftModel(): void {
    // What the user chose before a reload wins over the defaults from Settings.
    const kept = loadDraftOptions()
    const defaultModel = providers.defaultModel
    let next: ChatOptions = {
      providerId: draft.value.providerId ?? kept.providerId ?? defaultModel?.providerId ?? null,
      modelId: draft.value.modelId ?? kept.modelId ?? defaultModel?.modelId ?? null,
      permissionMode: kept.permissionMode ?? settings.settings?.defaultPermissionMode ?? 'default',
      workspaceDir:
        draft.value.workspaceDir || kept.workspaceDir || settings.settings?.defaultWorkspaceDir || ''
    }
    const enabled = [
      ...providers.providers.flatMap((p) =>
        p.enabled ? p.models.filter((m) => m.enabled).map((m) => `${p.id}/${m.id}`) : []
      ),
      ...acp.enabledAgents.map((agent) => `${ACP_PROVIDER_ID}/${agent.id}`)
    ]
    if (!enabled.includes(`${next.providerId}/${next.modelId}`))
      next = { ...next, providerId: defaultModel?.providerId ?? null, modelId: defaultModel?.modelId ?? null }
    if (!next.modelId) {
      const first = providers.providers.find((p) => p.enabled && p.models.some((m) => m.enabled))
      const model = first?.models.find((m) => m.enabled)
      if (first && model) next = { ...next, providerId: first.id, modelId: model.id }
    }
    draft.value = next
  }

  /** Model, mode or folder: the new chat's on the new-chat page, else the open chat's. */
  async function update(patch: Partial<ChatOptions>): Promise<void> {
    if (!chat.sessionId) return setDraft(patch)
    const change: SessionSettingsPatch = {}
    if (patch.providerId && patch.modelId)
      change.model = { providerId: patch.providerId, modelId: patch.modelId }
    if (patch.permissionMode) change.permissionMode = patch.permissionMode
    if (patch.workspaceDir !== undefined)
      change.workspaceDir = requestedWorkspace({
        workspaceDir: patch.workspaceDir,
        workspaceToken: patch.workspaceToken
      })
    await chat.updateSettings(change)
  }

  /** An assistant brings its model (when it names one) and its instructions and parameters. */
  function chooseAssistant(assistant: Assistant | null): void {
    setDraft({
      assistantId: assistant?.id ?? null,
      ...(assistant?.model ?? {}),
      generation: assistant
        ? { ...assistant.params, ...(assistant.systemPrompt ? { systemPrompt: assistant.systemPrompt } : {}) }
        : undefined
    })
  }

  /**
   * What the next send creates a new chat with, once Settings' defaults are chosen: a send made
   * while the page still read them created the chat in the draft's placeholder mode ('default'
   * where the user's default is another).
   */
  async function takeNewSessionWhenReady(): Promise<NewSessionOptions> {
    await defaultsChosen?.catch(() => undefined)
    return takeNewSession()
  }

  /** What the next send creates a new chat with; a folder's pick token is spent by it. */
  function takeNewSession(): NewSessionOptions {
    const o = draft.value
    // The folder itself is known to main once the chat exists.
    if (o.workspaceToken) draft.value = { ...o, workspaceToken: undefined }
    return {
      ...(o.providerId && o.modelId ? { providerId: o.providerId, modelId: o.modelId } : {}),
      permissionMode: o.permissionMode,
      workspaceDir: requestedWorkspace(o),
      ...(o.assistantId ? { assistantId: o.assistantId } : {}),
      ...(o.generation ? { generationSettings: o.generation } : {})
    }
  }

  return {
    draft,
    current,
    waiting,
    draftGeneration,
    loadDefaults,
    setDraft,
    update,
    chooseAssistant,
    takeNewSession,
    takeNewSessionWhenReady
  }
})
