import { PermissionMode } from '@shared/types/permission'
import type { GenerationSettings } from '@shared/types/session'

/** What a new chat starts with; an existing chat shows its own values. */
export interface ChatOptions {
  providerId: string | null
  modelId: string | null
  permissionMode: PermissionMode
  /** '' for a new chat without a folder: it gets its own scratch folder. */
  workspaceDir: string
  /** An existing chat working in its scratch folder. */
  workspaceIsScratch?: boolean
  /** The new chat's assistant (its instructions, parameters, model and tools). */
  assistantId?: string | null
  /** Instructions and parameters: an open chat's own, or what a new chat starts with. */
  generation?: GenerationSettings
}

const DRAFT_KEY = 'deepchat.newChatDraft'

/** The new-chat composer's choices, kept across reloads of the window. */
export function loadDraftOptions(
  storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage
): Partial<ChatOptions> {
  try {
    const raw = JSON.parse(storage?.getItem(DRAFT_KEY) ?? 'null') as Record<string, unknown> | null
    if (!raw || typeof raw !== 'object') return {}
    const text = (value: unknown) => (typeof value === 'string' && value.length <= 4096 ? value : undefined)
    const mode = PermissionMode.safeParse(raw.permissionMode)
    return {
      ...(text(raw.providerId) && text(raw.modelId)
        ? { providerId: text(raw.providerId), modelId: text(raw.modelId) }
        : {}),
      ...(mode.success ? { permissionMode: mode.data } : {}),
      ...(text(raw.workspaceDir) !== undefined ? { workspaceDir: text(raw.workspaceDir) } : {})
    }
  } catch {
    return {} // unreadable storage: start from the defaults
  }
}

export function saveDraftOptions(
  options: ChatOptions,
  storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage
): void {
  try {
    const { providerId, modelId, permissionMode, workspaceDir } = options
    storage?.setItem(DRAFT_KEY, JSON.stringify({ providerId, modelId, permissionMode, workspaceDir }))
  } catch {
    // Storage full or disabled: the draft simply is not remembered.
  }
}
