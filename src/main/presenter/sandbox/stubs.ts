import { lstatSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/**
 * Empty files bwrap leaves on the host where it mounted over a protected entry that did not
 * exist (`<ws>/.git` of a folder that is not a repository). They are removed when the last
 * command of ours using them exits: removing one earlier would detach the mount inside a
 * command still running, and that command could then create the entry. The stubs held are
 * kept in a journal file too, so a host killed mid-command leaves no stub behind after its
 * next start (`sweepLeftoverStubs`).
 */
export class StubLedger {
  private readonly holders = new Map<string, number>()

  constructor(private readonly journalFile?: string) {}

  isHeld(path: string): boolean {
    return this.holders.has(path)
  }

  /** Counts one more command on `paths`; the returned release (idempotent) undoes it. */
  hold(paths: string[]): () => void {
    for (const path of paths) this.holders.set(path, (this.holders.get(path) ?? 0) + 1)
    if (paths.length) this.writeJournal()
    let released = false
    return () => {
      if (released) return
      released = true
      for (const path of paths) {
        const left = (this.holders.get(path) ?? 1) - 1
        if (left > 0) {
          this.holders.set(path, left)
          continue
        }
        this.holders.delete(path)
        removeIfEmptyStub(path)
      }
      if (paths.length) this.writeJournal()
    }
  }

  private writeJournal(): void {
    if (!this.journalFile) return
    try {
      mkdirSync(dirname(this.journalFile), { recursive: true })
      const tmp = `${this.journalFile}.${process.pid}.tmp`
      writeFileSync(tmp, JSON.stringify([...this.holders.keys()]), { mode: 0o600 })
      renameSync(tmp, this.journalFile)
    } catch {
      // A journal that cannot be written only costs the crash clean-up, never the command.
    }
  }
}

/**
 * At start: the stubs a previous host held when it died are removed (each only while it is still
 * an empty file) and the journal is cleared. Returns the paths removed.
 */
export function sweepLeftoverStubs(journalFile: string): string[] {
  let paths: unknown
  try {
    paths = JSON.parse(readFileSync(journalFile, 'utf8'))
  } catch {
    return []
  }
  const removed = Array.isArray(paths)
    ? paths.filter((p): p is string => typeof p === 'string' && removeIfEmptyStub(p))
    : []
  try {
    unlinkSync(journalFile)
  } catch {
    // Already gone.
  }
  return removed
}

/** Removes `path` only while it is still an empty regular file: anything else is the user's. */
export function removeIfEmptyStub(path: string): boolean {
  try {
    const stats = lstatSync(path)
    if (!stats.isFile() || stats.size !== 0) return false
    unlinkSync(path)
    return true
  } catch {
    return false // gone already, or not ours to touch
  }
}
