import type { PermissionMode } from '@shared/types/permission'

/** What a new chat starts with; an existing chat shows its own values. */
export interface ChatOptions {
  providerId: string | null
  modelId: string | null
  permissionMode: PermissionMode
  workspaceDir: string
}
