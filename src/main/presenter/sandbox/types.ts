/**
 * The OS sandbox commands run in when nobody approved them. A plan says how one command runs;
 * the runner turns it into the argv to spawn.
 */

/** Where an unapproved command may write: nowhere, or the workspace minus its protected entries. */
export interface SandboxPlan {
  /** Real path of the session's workspace. */
  workspaceDir: string
  writableWorkspace: boolean
}

export type SandboxKind = 'bwrap' | 'seatbelt' | 'none'

/** Shown in Settings › Permissions: which sandbox guards unasked commands, or why none does. */
export interface SandboxStatus {
  kind: SandboxKind
  available: boolean
  /** Why there is no sandbox (platform, bwrap missing, user namespaces off). */
  reason?: string
}
