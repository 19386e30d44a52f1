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
 * Which storage fault an error from SQLite or Node's fs is, or null when it is not one. An
 * allowlist: only codes that mean the disk, the file's permissions or the device failed.
 */
export function storageFaultKindOf(error: unknown): StorageFaultKind | null {
  if (error instanceof StorageFaultError) return error.fault.kind
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return null
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG') return 'full'
  if (code === 'SQLITE_IOERR' || code.startsWith('SQLITE_IOERR_') || code === 'EIO') return 'io'
  if (code === 'SQLITE_READONLY' || code.startsWith('SQLITE_READONLY_') || code === 'EROFS') return 'readonly'
  return null
}
