import { watch, type FSWatcher } from 'node:fs'
import { basename, dirname } from 'node:path'

/** Changes are gathered this long before a re-index runs (a save, a checkout, an unzip). */
export const WATCH_DEBOUNCE_MS = 1500
/** Folders watched per base at most; beyond, the base catches up when the app opens or on re-index. */
export const MAX_WATCHED_FOLDERS = 2000

/**
 * Watches the folders a base's last scan walked (never `.git`, `node_modules` or ignored ones:
 * a recursive watch would follow those too) and the folders of its file sources, and calls
 * `changed` once things settle. A file is watched through its folder, because editors replace
 * files, which ends a watch on the file itself. A folder that cannot be watched is left to the
 * re-index on open.
 */
export class SourceWatcher {
  private readonly watchers: FSWatcher[] = []
  private timer: NodeJS.Timeout | null = null

  constructor(
    targets: { folders: readonly string[]; files: readonly string[] },
    private readonly changed: () => void,
    private readonly debounceMs = WATCH_DEBOUNCE_MS,
    log?: (message: string) => void
  ) {
    const names = new Map<string, Set<string>>()
    for (const file of targets.files) {
      const dir = dirname(file)
      names.set(dir, (names.get(dir) ?? new Set()).add(basename(file)))
    }
    const folders = new Set(targets.folders)
    for (const dir of [...folders, ...names.keys()].slice(0, MAX_WATCHED_FOLDERS)) {
      // A folder of a folder source: any change; only a file source's folder: its own names.
      const only = folders.has(dir) ? null : names.get(dir)
      try {
        const watcher = watch(dir, { persistent: false }, (_event, name) => {
          if (only && name && !only.has(String(name))) return
          this.schedule()
        })
        watcher.on('error', () => undefined)
        this.watchers.push(watcher)
      } catch (error) {
        log?.(`knowledge: cannot watch ${dir}: ${String(error)}`)
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
