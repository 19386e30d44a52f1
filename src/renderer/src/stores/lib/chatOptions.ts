import { PermissionMode } from '@shared/types/permission'
import type { GenerationSettings } from '@shared/types/session'

/** What a new chat starts with; an existing chat shows its own values. */
export interface ChatOptions {
  providerId: string | null
  modelId: string | null
  permissionMode: PermissionMode
  /** '' for a new chat without a folder: it gets its own scratch folder. */
  workspaceDir: string
  /** The pick token for `workspaceDir` when the user just picked it (never stored: single use). */
  workspaceToken?: string
  /** An existing chat working in its scratch folder. */
  workspaceIsScratch?: boolean
  /** The new chat's assistant (its instructions, parameters, model and tools). */
  assistantId?: string | null
  /** Instructions and parameters: an open chat's own, or what a new chat starts with. */
  generation?: GenerationSettings
}

/** A folder as main's picker answered it: the real path to show and the token routes accept. */
export interface PickedFolder {
  path: string
  token: string
}

/** The folder a new chat asks for: the pick token when there is one, else the folder itself (or null). */
export function requestedWorkspace(
  options: Pick<ChatOptions, 'workspaceDir' | 'workspaceToken'>
): string | null {
  if (!options.workspaceDir) return null
  return options.workspaceToken ?? options.workspaceDir
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
