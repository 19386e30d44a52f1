import type { PermissionRequest } from '@shared/types/permission'

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
    return {
      type: 'settings',
      tool: change.tool,
      server: change.server,
      sessionId: change.sessionId,
      risk: 'medium',
      reason: `Change setting ${change.setting}: ${change.summary}`,
      suggestedRule: { kind: 'settings', pattern: change.tool, effect: 'allow' }
    }
  }
}
