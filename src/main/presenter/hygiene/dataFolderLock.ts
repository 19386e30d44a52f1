import {
  closeSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync
} from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { processStartTime } from './startTime'

/** `<data>/host.lock`: which host has this data folder open (one at a time: one writer of its database). */
export const LOCK_FILE = 'host.lock'

const LockRecord = z.object({
  pid: z.number().int().positive(),
  /** The process's start time: a pid reused by another program does not hold the lock. */
  startTime: z.string().nullable(),
  url: z.string().optional()
})
type LockRecord = z.infer<typeof LockRecord>

/** Another live host has the folder: the one line to print. */
export class DataFolderLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockRecord
  ) {
    const where = holder.url ? ` at ${new URL(holder.url).origin}` : ''
    super(
      `Another DeepChat Desk host (pid ${holder.pid}${where}) is using the data folder ${dataDir}: open that one, or stop it first.`
    )
    this.name = 'DataFolderLockedError'
  }
}

export interface DataFolderLock {
  /** Records where this host serves (a second host names it). */
  setOrigin(origin: string): void
  release(): void
}

/**
 * Takes the data folder's lock file (created exclusively, with this host's pid and start time).
 * A lock whose process is gone, or whose pid now belongs to another program, is stale and taken
 * over; a live holder throws DataFolderLockedError.
 */
export async function lockDataFolder(dataDir: string): Promise<DataFolderLock> {
  const file = join(dataDir, LOCK_FILE)
  const own: LockRecord = { pid: process.pid, startTime: await processStartTime(process.pid) }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600)
      writeSync(fd, JSON.stringify(own))
      closeSync(fd)
      return held(file, own)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const holder = readLock(file)
    if (holder && (await isRunning(holder))) throw new DataFolderLockedError(dataDir, holder)
    // Empty and new: a host that has just created it is writing its pid now.
    if (!holder && Date.now() - mtimeOf(file) < 5_000)
      throw new Error(`Another DeepChat Desk host is starting on the data folder ${dataDir}.`)
    // Stale (or half-written by a host that died at once): moved away atomically, so two hosts
    // taking over at the same moment cannot both remove a fresh lock.
    try {
      renameSync(file, `${file}.stale-${process.pid}`)
      rmSync(`${file}.stale-${process.pid}`, { force: true })
    } catch {
      // Another host moved it first; try again.
    }
  }
  throw new Error(`Could not take the lock ${file}: another host keeps replacing it.`)
}

function held(file: string, own: LockRecord): DataFolderLock {
  let released = false
  return {
    setOrigin(origin) {
      const tmp = `${file}.${process.pid}.tmp`
      writeFileSync(tmp, JSON.stringify({ ...own, url: origin }), { mode: 0o600 })
      renameSync(tmp, file)
    },
    release() {
      if (released) return
      released = true
      // Only our own lock: a host that took it over after we were thought dead keeps its own.
      if (readLock(file)?.pid === own.pid) rmSync(file, { force: true })
    }
  }
}

function mtimeOf(file: string): number {
  try {
    return statSync(file).mtimeMs
  } catch {
    return 0
  }
}

function readLock(file: string): LockRecord | null {
  try {
    const parsed = LockRecord.safeParse(JSON.parse(readFileSync(file, 'utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

async function isRunning(holder: LockRecord): Promise<boolean> {
  if (holder.pid === process.pid) return false
  try {
    process.kill(holder.pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  // Where start times are unknown (Windows), a live pid counts as the holder.
  if (holder.startTime === null) return true
  return (await processStartTime(holder.pid)) === holder.startTime
}
