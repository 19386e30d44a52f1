import type { PermissionRequest } from '@shared/types/permission'
import { reasonOf } from './reasonText'

export interface SettingsChange {
  sessionId: string
  tool: string
  server: string
  /** Which setting the tool wants to change, e.g. `theme` or `mcp.servers`. */
  setting: string
  summary: string
}

/** Every settings change a tool makes is shown to the user first. */
export class SettingsPermissionService {
  check(change: SettingsChange): PermissionRequest {
    const reason = reasonOf('change_setting', { setting: change.setting, summary: change.summary })
    return {
      type: 'settings',
      tool: change.tool,
      server: change.server,
      sessionId: change.sessionId,
      risk: 'medium',
      reason: reason.text,
      reasonCodes: [reason.code],
      suggestedRule: { kind: 'settings', pattern: change.tool, effect: 'allow' }
    }
  }
}
