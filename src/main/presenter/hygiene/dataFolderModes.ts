import { chmodSync, lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

export interface DataFolderFiles {
  dataDir: string
  /** The database file name; its `-wal`, `-shm` and `-journal` siblings count too. */
  databaseFile: string
  secretsFiles: string[]
}

/**
 * Makes the data folder private to the user (0700) and the database and secrets files 0600,
 * where they are looser; stricter modes stay. Returns the paths it changed. No-op on Windows.
 */
export function tightenDataFolderModes(
  files: DataFolderFiles,
  platform: NodeJS.Platform = process.platform
): string[] {
  if (platform === 'win32') return []
  const changed: string[] = []
  const tighten = (path: string, allowed: number): void => {
    try {
      const stats = lstatSync(path)
      // Never follow a symlink: its target is not ours to change.
      if (stats.isSymbolicLink()) return
      const mode = stats.mode & 0o7777
      if ((mode & ~allowed) === 0) return
      chmodSync(path, mode & allowed)
      changed.push(path)
    } catch {
      // Missing: nothing to fix.
    }
  }
  tighten(files.dataDir, 0o700)
  for (const name of namesIn(files.dataDir))
    if (name.startsWith(files.databaseFile)) tighten(join(files.dataDir, name), 0o600)
  for (const file of files.secretsFiles) tighten(file, 0o600)
  return changed
}

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}
