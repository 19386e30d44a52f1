import { join } from 'node:path'
import { tightenDataFolderModes } from './dataFolderModes'
import { ProcessGroupRegistry, reapOrphanedGroups } from './processGroups'

/** Where hosts record the process groups they start (`<data>/process-groups/<pid>-<start>.json`). */
export const PROCESS_GROUPS_FOLDER = 'process-groups'

export interface HygieneOptions {
  dataDir: string
  databaseFile: string
  secretsFiles: string[]
  log: (message: string) => void
}

/**
 * Start-up chores of the composition root: the data folder and its database and secrets files
 * made private (fixed if looser), the process groups a crashed host left behind reaped in the
 * background, and the registry this host records its own groups in.
 */
export function startProcessHygiene(options: HygieneOptions): { groups: ProcessGroupRegistry } {
  const changed = tightenDataFolderModes(options)
  if (changed.length) options.log(`Made private (were readable by others): ${changed.join(', ')}`)
  const groupsDir = join(options.dataDir, PROCESS_GROUPS_FOLDER)
  void reapOrphanedGroups(groupsDir, options.log).catch((error) =>
    options.log(`Reaping leftover processes failed: ${String(error)}`)
  )
  return { groups: new ProcessGroupRegistry(groupsDir, options.log) }
}
