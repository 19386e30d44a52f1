import { realpathSync, statSync } from 'node:fs'

/*
 * A sandbox profile looks up some sixty paths per command, most of them missing (secret files a
 * user does not have). A thrown ENOENT costs tens of microseconds each, so missing paths are
 * found with a stat that does not throw, and only existing ones are resolved.
 */

/** True when `path` leads to something (following links). */
export function existing(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined
  } catch {
    return false
  }
}

/** The real path of `path`, or `path` itself when it does not exist or cannot be resolved. */
export function realOrSelf(path: string): string {
  if (!existing(path)) return path
  try {
    return realpathSync.native(path)
  } catch {
    return path
  }
}
