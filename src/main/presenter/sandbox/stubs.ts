import { lstatSync, unlinkSync } from 'node:fs'

/**
 * Empty files bwrap leaves on the host where it mounted over a protected entry that did not
 * exist (`<ws>/.git` of a folder that is not a repository). They are removed when the last
 * command of ours using them exits: removing one earlier would detach the mount inside a
 * command still running, and that command could then create the entry.
 */
export class StubLedger {
  private readonly holders = new Map<string, number>()

  isHeld(path: string): boolean {
    return this.holders.has(path)
  }

  /** Counts one more command on `paths`; the returned release (idempotent) undoes it. */
  hold(paths: string[]): () => void {
    for (const path of paths) this.holders.set(path, (this.holders.get(path) ?? 0) + 1)
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
    }
  }
}

/** Removes `path` only while it is still an empty regular file: anything else is the user's. */
export function removeIfEmptyStub(path: string): void {
  try {
    const stats = lstatSync(path)
    if (stats.isFile() && stats.size === 0) unlinkSync(path)
  } catch {
    // Gone already, or not ours to touch.
  }
}
