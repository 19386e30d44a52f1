import { z } from 'zod'

/**
 * Why the app cannot save: the disk is full, an I/O error, a read-only database, or the data
 * folder removed while the app runs. The message names the cause and the folder.
 */
export const StorageFaultKind = z.enum(['full', 'io', 'readonly', 'folder_gone'])
export type StorageFaultKind = z.infer<typeof StorageFaultKind>

export const StorageFault = z.object({ kind: StorageFaultKind, folder: z.string(), message: z.string() })
export type StorageFault = z.infer<typeof StorageFault>

/** A damaged database found at start: moved aside, a fresh one created in its place. */
export const DamagedDatabase = z.object({
  /** Where the damaged file now is (`deepchat.db.damaged-<time>`). */
  movedTo: z.string(),
  /** SQLite's words about it. */
  reason: z.string(),
  /** The newest automatic or manual backup, offered for restore; null when there is none. */
  latestBackup: z.string().nullable()
})
export type DamagedDatabase = z.infer<typeof DamagedDatabase>

export const StorageStatus = z.object({
  fault: StorageFault.nullable(),
  damaged: DamagedDatabase.nullable()
})
export type StorageStatus = z.infer<typeof StorageStatus>
