import { watch, type FSWatcher } from 'node:fs'
import { basename, dirname } from 'node:path'

/** Changes are gathered this long before a re-index runs (a save, a checkout, an unzip). */
export const WATCH_DEBOUNCE_MS = 1500
const NOISE = /(^|[\\/])(\.git|node_modules|\.hg|\.svn|__pycache__)([\\/]|$)/

/**
 * Watches a base's sources and calls `changed` once things settle. Folders are watched
 * recursively, a file through its folder (editors replace files, which ends a watch on the file
 * itself). A source that cannot be watched is left to the re-index on open.
 */
export class SourceWatcher {
  private readonly watchers: FSWatcher[] = []
  private timer: NodeJS.Timeout | null = null

  constructor(
    sources: readonly { kind: 'file' | 'folder'; path: string }[],
    private readonly changed: () => void,
    private readonly debounceMs = WATCH_DEBOUNCE_MS,
    log?: (message: string) => void
  ) {
    for (const source of sources) {
      try {
        if (source.kind === 'folder') {
          const w = watch(source.path, { recursive: true, persistent: false }, (_event, name) => {
            if (name && NOISE.test(String(name))) return
            this.schedule()
          })
          w.on('error', () => undefined)
          this.watchers.push(w)
        } else {
          const name = basename(source.path)
          const w = watch(dirname(source.path), { persistent: false }, (_event, changedName) => {
            if (!changedName || String(changedName) === name) this.schedule()
          })
          w.on('error', () => undefined)
          this.watchers.push(w)
        }
      } catch (error) {
        log?.(`knowledge: cannot watch ${source.path}: ${String(error)}`)
      }
    }
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.timer = null
      this.changed()
    }, this.debounceMs)
    this.timer.unref?.()
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    for (const w of this.watchers.splice(0)) w.close()
  }
}
