import { AppError } from '@shared/errors'
import type { StorageFault, StorageFaultKind } from '@shared/types/storage'

/** The words the user sees for each fault: the cause, the folder, and what to do. */
export function storageFaultMessage(kind: StorageFaultKind, folder: string): string {
  switch (kind) {
    case 'full':
      return `The disk holding ${folder} is full. Free some space there, then send again; everything saved before is kept.`
    case 'io':
      return `Writing to ${folder} failed with a disk I/O error. Check the disk, then send again; everything saved before is kept.`
    case 'readonly':
      return `The database in ${folder} is read-only, so nothing new can be saved. Give your user write permission on it, then send again; everything saved before is kept.`
    case 'folder_gone':
      return `The data folder ${folder} was removed while the app was running, so nothing more can be saved. Restart the app to start again with an empty data folder.`
  }
}

/** A storage fault as the one error type that reaches the client (code `storage`). */
export class StorageFaultError extends AppError {
  readonly fault: StorageFault
  constructor(kind: StorageFaultKind, folder: string) {
    const fault = { kind, folder, message: storageFaultMessage(kind, folder) }
    super('storage', fault.message, fault)
    this.fault = fault
  }
}

/**
 * Which storage fault an error from SQLite is, or null when it is not one. An allowlist of
 * SQLite's codes for a full disk, a failed device and a read-only file; errors of the file
 * system elsewhere (a workspace on another disk) are not the data folder's and are not named so.
 */
export function storageFaultKindOf(error: unknown): StorageFaultKind | null {
  if (error instanceof StorageFaultError) return error.fault.kind
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return null
  if (code === 'SQLITE_FULL') return 'full'
  if (code === 'SQLITE_IOERR_NOMEM') return null // memory, not the disk
  if (code === 'SQLITE_IOERR' || code.startsWith('SQLITE_IOERR_')) return 'io'
  if (code === 'SQLITE_READONLY' || code.startsWith('SQLITE_READONLY_')) return 'readonly'
  return null
}
