import { createHash } from 'node:crypto'
import { dirname, join } from 'node:path'
import { startGitCapture } from './gitCapture'
import {
  SHELL_CAPTURE_BUDGET_MS,
  SHELL_CAPTURE_MAX_FILES,
  lateText,
  tooLargeText,
  type ShellCaptureResult,
  type ShellCaptureStart
} from './limits'
import { WorkspaceMirror } from './workspaceMirror'

export {
  SHELL_CAPTURE_MAX_FILE_BYTES,
  type ShellCapture,
  type ShellCaptureResult,
  type ShellCaptureStart,
  type ShellChange
} from './limits'

export interface ShellCapturesOptions {
  budgetMs?: number
  maxFiles?: number
  platform?: NodeJS.Platform
  /** A workspace's watches are dropped after this long without a command (default 30 min). */
  idleMs?: number
  /** At most this many workspaces are watched at once; the least recently used goes first. */
  maxWatched?: number
}

/** A workspace found too large (or unwatchable) is not tried again for this long. */
const RETRY_MS = 10 * 60_000

/**
 * What each foreground shell command changed in the workspace, for the turn's checkpoint.
 *
 * On Linux a watched mirror of each workspace (`WorkspaceMirror`) is kept current between
 * commands: a command costs no snapshot before it and, after it, only the look at what it
 * changed. Elsewhere, or where the workspace cannot be watched (no inotify watches left), a
 * shadow git index is taken before and after (`gitCapture.ts`).
 */
export class ShellCaptures {
  private readonly mirrors = new Map<string, WorkspaceMirror>()
  private readonly storeDirs = new Map<string, string>()
  private readonly notMirrored = new Map<string, { until: number; why: 'too_large' | 'unwatchable' }>()
  private readonly sweep: NodeJS.Timeout

  constructor(private readonly options: ShellCapturesOptions = {}) {
    this.sweep = setInterval(() => this.closeIdle(), 60_000)
    this.sweep.unref()
  }

  /** Starts recording what a command run in `workspaceDir` changes; `dataDir` keeps the old contents. */
  async start(dataDir: string, workspaceDir: string): Promise<ShellCaptureStart> {
    const budgetMs = this.options.budgetMs ?? SHELL_CAPTURE_BUDGET_MS
    const maxFiles = this.options.maxFiles ?? SHELL_CAPTURE_MAX_FILES
    const git = () => startGitCapture(dataDir, workspaceDir, { budgetMs, maxFiles })
    if ((this.options.platform ?? process.platform) !== 'linux') return git()
    const storeDir = this.storeDirOf(dataDir, workspaceDir)
    const skip = this.notMirrored.get(storeDir)
    if (skip && skip.until > Date.now())
      return skip.why === 'too_large' ? { capture: null, notRecorded: tooLargeText(maxFiles) } : git()
    const mirror = this.mirrorOf(storeDir, workspaceDir, maxFiles)
    if (mirror.journaling)
      return { capture: null, notRecorded: 'another command in this workspace is being recorded' }
    // Between commands the mirror keeps itself current: once the events already queued are
    // read (two turns of the event loop, one with a poll for them), there is nothing to wait for.
    await loopTurn()
    await loopTurn()
    const before = mirror.current ? 'ready' : await mirror.settle(budgetMs)
    if (before === 'late') return { capture: null, notRecorded: lateText('before', budgetMs) }
    if (before !== 'ready') {
      this.drop(storeDir)
      const tooLarge = 'tooLarge' in before
      this.notMirrored.set(storeDir, {
        until: Date.now() + RETRY_MS,
        why: tooLarge ? 'too_large' : 'unwatchable'
      })
      return tooLarge ? { capture: null, notRecorded: tooLargeText(maxFiles) } : git()
    }
    mirror.beginJournal()
    return { capture: { finish: () => this.finish(storeDir, mirror, budgetMs) } }
  }

  /** Where a workspace's mirror keeps its store: named by a hash of the workspace path (once per pair). */
  private storeDirOf(dataDir: string, workspaceDir: string): string {
    const key = `${dataDir}\0${workspaceDir}`
    let dir = this.storeDirs.get(key)
    if (!dir) {
      dir = join(dataDir, createHash('sha256').update(workspaceDir).digest('hex').slice(0, 16))
      if (this.storeDirs.size >= 256) this.storeDirs.clear()
      this.storeDirs.set(key, dir)
    }
    return dir
  }

  /** Closes every watch. */
  dispose(): void {
    clearInterval(this.sweep)
    for (const key of [...this.mirrors.keys()]) this.drop(key)
  }

  private async finish(
    storeDir: string,
    mirror: WorkspaceMirror,
    budgetMs: number
  ): Promise<ShellCaptureResult> {
    const after = await mirror.settle(budgetMs)
    const result = mirror.endJournal()
    if (after === 'ready') return result
    if (after !== 'late') this.drop(storeDir)
    const why =
      after === 'late'
        ? lateText('after', budgetMs)
        : 'tooLarge' in after
          ? tooLargeText(this.options.maxFiles ?? SHELL_CAPTURE_MAX_FILES)
          : `the look after the command failed (${after.broken})`
    return { changes: [], notRecorded: why }
  }

  private mirrorOf(storeDir: string, workspaceDir: string, maxFiles: number): WorkspaceMirror {
    const known = this.mirrors.get(storeDir)
    if (known && !known.broken) {
      // Most recently used last, so the first is the one to close when too many are open.
      this.mirrors.delete(storeDir)
      this.mirrors.set(storeDir, known)
      return known
    }
    if (known) this.drop(storeDir)
    // The chat's data folder (logs, these stores) may lie inside a workspace such as home.
    const mirror = new WorkspaceMirror(workspaceDir, storeDir, maxFiles, [dirname(dirname(storeDir))])
    mirror.open()
    this.mirrors.set(storeDir, mirror)
    const maxWatched = this.options.maxWatched ?? 8
    while (this.mirrors.size > maxWatched) this.drop(this.mirrors.keys().next().value as string)
    return mirror
  }

  private drop(storeDir: string): void {
    this.mirrors.get(storeDir)?.close()
    this.mirrors.delete(storeDir)
  }

  private closeIdle(): void {
    const idleMs = this.options.idleMs ?? 30 * 60_000
    for (const [key, mirror] of [...this.mirrors])
      if (!mirror.journaling && Date.now() - mirror.lastUsed > idleMs) this.drop(key)
  }
}

const loopTurn = () => new Promise<void>((resolve) => setImmediate(resolve))
