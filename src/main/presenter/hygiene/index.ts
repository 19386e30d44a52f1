import { join } from 'node:path'
import { ProcessGroupRegistry, reapOrphanedGroups } from './processGroups'

/** Where hosts record the process groups they start (`<data>/process-groups/<pid>-<start>.json`). */
export const PROCESS_GROUPS_FOLDER = 'process-groups'

export interface HygieneOptions {
  dataDir: string
  log: (message: string) => void
}

/**
 * Start-up chores of the composition root: the process groups a crashed host left behind reaped
 * in the background, and the registry this host records its own groups in. (File modes are set
 * when the data folder and its files are created, never changed afterwards: a mode the user
 * chose, such as a read-only database, stays.)
 */
export function startProcessHygiene(options: HygieneOptions): { groups: ProcessGroupRegistry } {
  const groupsDir = join(options.dataDir, PROCESS_GROUPS_FOLDER)
  void reapOrphanedGroups(groupsDir, options.log).catch((error) =>
    options.log(`Reaping leftover processes failed: ${String(error)}`)
  )
  return { groups: new ProcessGroupRegistry(groupsDir, options.log) }
}
