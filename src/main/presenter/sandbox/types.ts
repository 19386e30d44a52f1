import type { SandboxStatus } from '@shared/types/permission'

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

export type { SandboxStatus } from '@shared/types/permission'
export type SandboxKind = SandboxStatus['kind']
