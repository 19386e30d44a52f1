import { accessSync, constants, statfsSync, statSync, watch, type FSWatcher } from 'node:fs'
import type { DamagedDatabase, StorageFault, StorageStatus } from '@shared/types/storage'
import { StorageFaultError, storageFaultKindOf } from './storageFaults'

export interface StorageGuardOptions {
  dataDir: string
  /** The open database file (its inode is remembered: a new file at the path is not ours). */
  databaseFile: string
  /** Turns writes off on the open connection (`PRAGMA query_only`), once the folder is gone. */
  stopWrites: () => void
  log: (message: string) => void
  /** How often the folder is looked for besides the file watch (ms). */
  pollMs?: number
  /** A damaged database this start moved aside (the user is told where, and offered a backup). */
  damaged?: Omit<DamagedDatabase, 'latestBackup'> | null
  /** The newest backup to offer in its place. */
  latestBackup?: () => string | null
}

/** Free space the disk needs before a send after "disk full" is tried again. */
const FREE_BYTES_TO_RETRY = 1024 * 1024

/**
 * Knows whether the data folder can be written: it turns SQLite's and the file system's
 * storage errors into one fault with the user's words, notices the folder being removed (a
 * watch on it and a poll), and checks again before each send whether the fault is gone.
 */
export class StorageGuard {
  private current: StorageFault | null = null
  private readonly inode: number | null
  private readonly listeners = new Set<(fault: StorageFault | null) => void>()
  private watcher: FSWatcher | null = null
  private timer: NodeJS.Timeout | null = null

  constructor(private readonly options: StorageGuardOptions) {
    this.inode = inodeOf(options.databaseFile)
  }

  /** Starts noticing a removed folder; a read-only database is reported at once. */
  start(): void {
    if (!writable(this.options.databaseFile) || !writable(this.options.dataDir)) this.record('readonly')
    try {
      this.watcher = watch(this.options.dataDir, () => this.checkFolder())
      this.watcher.on('error', () => this.checkFolder())
    } catch {
      // No watch here (some network file systems): the poll still notices.
    }
    this.timer = setInterval(() => this.checkFolder(), this.options.pollMs ?? 1000)
    this.timer.unref()
  }

  get fault(): StorageFault | null {
    return this.current
  }

  /** What the UI shows about storage: a fault now, and a damaged database found at start. */
  status(): StorageStatus {
    const { damaged, latestBackup } = this.options
    return {
      fault: this.current,
      damaged: damaged ? { ...damaged, latestBackup: latestBackup?.() ?? null } : null
    }
  }

  onChange(listener: (fault: StorageFault | null) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /**
   * The storage fault this error is (recorded and announced), or null when it is not one. A
   * write refused after the folder vanished is that, whatever SQLite called it.
   */
  recognize(error: unknown): StorageFaultError | null {
    const kind = storageFaultKindOf(error)
    if (kind === null) return null
    if (this.checkFolder() || this.current?.kind === 'folder_gone') return this.asError()
    this.record(kind)
    return this.asError()
  }

  /** Before a send: throws the fault while it lasts. A fault that may be gone is let through once, so the send's own writes are the check. */
  assertWritable(): void {
    if (this.checkFolder()) throw this.asError()
    const fault = this.current
    if (!fault) return
    if (fault.kind === 'folder_gone' || !this.mayHaveCleared(fault)) throw this.asError()
    this.clear()
  }

  dispose(): void {
    this.watcher?.close()
    if (this.timer) clearInterval(this.timer)
    this.watcher = null
    this.timer = null
  }

  /** True when the folder or the open database file has left its path (the first time: recorded). */
  private checkFolder(): boolean {
    if (this.current?.kind === 'folder_gone') return true
    if (this.inode === null || inodeOf(this.options.databaseFile) === this.inode) return false
    this.options.log(`The data folder ${this.options.dataDir} (or its database) was removed; writes are off.`)
    try {
      this.options.stopWrites()
    } catch {
      // The connection may already be closed (shutdown).
    }
    this.record('folder_gone')
    return true
  }

  private mayHaveCleared(fault: StorageFault): boolean {
    if (fault.kind === 'readonly')
      return writable(this.options.databaseFile) && writable(this.options.dataDir)
    if (fault.kind === 'full') {
      try {
        const stats = statfsSync(this.options.dataDir)
        return stats.bavail * stats.bsize >= FREE_BYTES_TO_RETRY
      } catch {
        return false
      }
    }
    return true
  }

  private record(kind: StorageFault['kind']): void {
    if (this.current?.kind === kind) return
    const fault = new StorageFaultError(kind, this.options.dataDir).fault
    this.current = fault
    this.options.log(`Storage fault: ${fault.message}`)
    for (const listener of this.listeners) listener(fault)
  }

  private clear(): void {
    this.current = null
    for (const listener of this.listeners) listener(null)
  }

  private asError(): StorageFaultError {
    return new StorageFaultError(this.current!.kind, this.current!.folder)
  }
}

function inodeOf(path: string): number | null {
  try {
    return statSync(path).ino
  } catch {
    return null
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK)
    return true
  } catch {
    return false
  }
}
