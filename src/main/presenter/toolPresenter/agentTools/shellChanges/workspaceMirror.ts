import { createHash } from 'node:crypto'
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  watch,
  writeFileSync,
  type FSWatcher,
  unlinkSync,
  type Stats
} from 'node:fs'
import { isAbsolute, join, relative, sep } from 'node:path'
import { deflateSync, inflateSync } from 'node:zlib'
import ignore, { type Ignore } from 'ignore'
import {
  MAX_CHANGED_FILES,
  SHELL_CAPTURE_EXCLUDES,
  SHELL_CAPTURE_MAX_FILE_BYTES,
  type ShellCaptureResult,
  type ShellChange
} from './limits'

/** One file as the mirror last saw it. */
interface MirrorEntry {
  /** Git blob id of the content (kept in the store), or `large:…` for a file too large to keep. */
  oid: string
  mode: number
  size: number
  mtimeMs: number
  ino: number
}

/** What a settle found: the mirror is the workspace now, or it could not be made so. */
export type SettleOutcome = 'ready' | 'late' | { broken: string } | { tooLarge: true }

const GIT_IGNORE = '.gitignore'
const MODE_FILE = 0o100644
const MODE_EXECUTABLE = 0o100755
const MODE_SYMLINK = 0o120000
/**
 * A command that makes more events than this may have overflowed the kernel's event queue
 * (which drops events silently): the next settle walks the whole tree instead of trusting them.
 */
const EVENTS_BEFORE_FULL_WALK = 4_000
/** How long after the last event the mirror folds changes in by itself (between commands). */
const QUIET_MS = 30
/**
 * The file system is read synchronously (a command's few changed files cost a fraction of what
 * the thread pool's round trips do); a walk of many files yields to the event loop this often.
 */
const VISITS_PER_YIELD = 256
/** ...or once this much has been read since the last yield (a tree of large files). */
const BYTES_PER_YIELD = 4 * 1024 * 1024
/** Folders watched at most, per file allowed (a tree of many near-empty folders is too large too). */
const FILES_PER_WATCHED_FOLDER = 5
/** Below this size a blob is compressed with a small window (zlib's setup dominates small files). */
const SMALL_BLOB_BYTES = 16 * 1024

/**
 * A watched picture of a workspace's files, kept current between shell commands so a command's
 * changes cost no snapshot before it and only the changed files after it (Linux).
 *
 * - Each folder has an inotify watch (`fs.watch`, not recursive); an event marks a path dirty
 *   and the dirty paths are folded in shortly after (lstat; a changed file is read and hashed).
 * - Small files' contents go into a content-addressed store (git's loose-object format, in the
 *   app's data folder), so the content a command replaced can be given back.
 * - `settle()` makes the picture the workspace *now*: it writes a file into a watched folder of
 *   its own and waits for that event. libuv reads every inotify watch of the process from one
 *   queue in order, so once that event arrives every earlier change has been seen.
 * - The same files as the git capture: `.gitignore` rules, the exclusions, no `.git` and no
 *   nested repositories.
 */
export class WorkspaceMirror {
  private readonly entries = new Map<string, MirrorEntry>()
  private readonly watchers = new Map<string, { watcher: FSWatcher; ino: number }>()
  private readonly ignores = new Map<string, Ignore | null>()
  private readonly excludes = ignore().add(SHELL_CAPTURE_EXCLUDES)
  private dirty = new Set<string>()
  private eventsSinceWalk = 0
  private walkAll = true
  private folding: Promise<void> | null = null
  private quietTimer: NodeJS.Timeout | null = null
  private sentinel: { watcher: FSWatcher; file: string; counter: number } | null = null
  private readonly sentinelWaiters = new Map<string, () => void>()
  private visitsSinceYield = 0
  private bytesSinceYield = 0
  /** Blobs read but not yet written to the store (see `storeBlob`). */
  private readonly unwritten = new Map<string, Buffer>()
  private flushing: NodeJS.Immediate | null = null
  private failure: string | null = null
  private tooLarge = false
  /** While a command runs: each path's entry before its first change (undefined: did not exist). */
  private journal: Map<string, MirrorEntry | undefined> | null = null
  lastUsed = Date.now()

  /** Folders of the app inside the workspace (a workspace that holds the data folder): never mirrored. */
  private readonly appFolders: string[]

  constructor(
    readonly workspaceDir: string,
    private readonly storeDir: string,
    private readonly maxFiles: number,
    appFolders: string[] = [storeDir]
  ) {
    this.appFolders = appFolders.flatMap((folder) => {
      const inside = relative(workspaceDir, folder).split(sep).join('/')
      return inside && !inside.startsWith('..') && !isAbsolute(inside) ? [inside] : []
    })
  }

  /** Starts watching; the first settle walks the whole tree. */
  open(): void {
    try {
      const sentinelDir = join(this.storeDir, 'sentinel')
      // Synchronous: the watch must exist before the first settle writes into it.
      mkdirSync(sentinelDir, { recursive: true })
      const watcher = watch(sentinelDir, { persistent: false }, (_event, name) => {
        if (name) this.sentinelWaiters.get(String(name))?.()
      })
      watcher.on('error', (error) => this.fail(`the change watcher stopped (${error.message})`))
      this.sentinel = { watcher, file: sentinelDir, counter: 0 }
    } catch (error) {
      this.fail(`the change watcher could not start (${messageOf(error)})`)
    }
  }

  get broken(): string | null {
    return this.failure
  }

  /** A command's changes are being recorded. */
  get journaling(): boolean {
    return this.journal !== null
  }

  /** Brings the picture up to the workspace as it is now, within `budgetMs`. */
  async settle(budgetMs: number): Promise<SettleOutcome> {
    this.lastUsed = Date.now()
    const work = this.settleNow()
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), budgetMs)))
    try {
      const outcome = await Promise.race([work.then(() => 'done' as const), late])
      if (outcome === 'late') return 'late'
    } catch (error) {
      this.fail(messageOf(error))
    } finally {
      clearTimeout(timer)
    }
    if (this.failure) return { broken: this.failure }
    if (this.tooLarge) return { tooLarge: true }
    return 'ready'
  }

  /**
   * True when every change delivered so far is folded in. A command may then start at once:
   * only a change made in the same instant (its event not read yet) would be counted as the
   * command's, as with a snapshot taken just before it.
   */
  get current(): boolean {
    return !this.failure && !this.walkAll && !this.folding && this.dirty.size === 0 && !this.quietTimer
  }

  /** Starts recording what changes from now on (when `current`, or after a settle). */
  beginJournal(): void {
    this.journal = new Map()
  }

  /**
   * What changed since `beginJournal` (after a settle): each file's content before, from the
   * store. At most MAX_CHANGED_FILES are given back; the result says when there were more.
   */
  endJournal(): ShellCaptureResult {
    const journal = this.journal ?? new Map<string, MirrorEntry | undefined>()
    this.journal = null
    const changed = [...journal]
      .filter(([path, before]) => !sameContent(before, this.entries.get(path)))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    const changes = changed.slice(0, MAX_CHANGED_FILES).map(([path, before]) => this.previous(path, before))
    return changed.length > MAX_CHANGED_FILES
      ? {
          changes,
          notRecorded: `the command changed ${changed.length} files; only the first ${MAX_CHANGED_FILES} were recorded for undo`
        }
      : { changes }
  }

  close(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer)
    if (this.flushing) clearImmediate(this.flushing)
    if (!this.failure) this.writeBlobs()
    for (const { watcher } of this.watchers.values()) watcher.close()
    this.watchers.clear()
    this.sentinel?.watcher.close()
    this.sentinel = null
  }

  private previous(path: string, before: MirrorEntry | undefined): ShellChange {
    if (!before) return { path, previousContent: null }
    if (before.oid.startsWith('large:')) return { path, previousContent: null, notKept: 'too_large' }
    const content = this.readBlob(before.oid)
    if (!content) return { path, previousContent: null, notKept: 'too_large' }
    if (content.includes(0)) return { path, previousContent: null, notKept: 'binary' }
    return { path, previousContent: content.toString('utf8') }
  }

  private async settleNow(): Promise<void> {
    if (this.failure) return
    await this.waitForSentinel()
    // Fold until nothing is left: events may arrive while a fold runs.
    while (this.folding || this.dirty.size > 0 || this.walkAll) await this.fold()
  }

  /** Waits until an event written now comes back: every earlier event has been delivered. */
  private waitForSentinel(): Promise<void> {
    const sentinel = this.sentinel
    if (!sentinel) throw new Error('the change watcher is not running')
    const name = `s${++sentinel.counter}`
    return new Promise<void>((resolve) => {
      this.sentinelWaiters.set(name, () => {
        this.sentinelWaiters.delete(name)
        try {
          unlinkSync(join(sentinel.file, name))
        } catch {
          // Already gone: nothing to tidy.
        }
        resolve()
      })
      writeFileSync(join(sentinel.file, name), '')
    })
  }

  private fold(): Promise<void> {
    this.folding ??= this.foldDirty().finally(() => (this.folding = null))
    return this.folding
  }

  private async foldDirty(): Promise<void> {
    if (this.walkAll) {
      this.walkAll = false
      this.dirty.clear()
      this.eventsSinceWalk = 0
      const seen = new Set<string>()
      await this.visit('', seen)
      for (const known of [...this.entries.keys()]) if (!seen.has(known)) this.setEntry(known, undefined)
      return
    }
    const paths = [...this.dirty]
    this.dirty = new Set()
    // Only a burst of events between two folds could overflow the kernel's queue.
    this.eventsSinceWalk = 0
    for (const path of paths) await this.visit(path)
  }

  private onEvent(dir: string, name: string | null): void {
    if (++this.eventsSinceWalk > EVENTS_BEFORE_FULL_WALK) this.walkAll = true
    // A changed .gitignore changes what belongs to its whole folder.
    else if (name === null || name === GIT_IGNORE) this.dirty.add(dir)
    else this.dirty.add(dir ? `${dir}/${name}` : name)
    if (this.quietTimer) clearTimeout(this.quietTimer)
    this.quietTimer = setTimeout(() => {
      this.quietTimer = null
      void this.fold().catch((error: unknown) => this.fail(messageOf(error)))
    }, QUIET_MS)
    this.quietTimer.unref()
  }

  /**
   * Brings one path (and, for a folder, everything below it) up to date. `seen` collects the
   * paths found during a walk of the whole tree (the walk forgets the rest at its end).
   */
  private async visit(path: string, seen?: Set<string>): Promise<void> {
    if (++this.visitsSinceYield >= VISITS_PER_YIELD || this.bytesSinceYield >= BYTES_PER_YIELD) {
      this.visitsSinceYield = 0
      this.bytesSinceYield = 0
      await new Promise((resolve) => setImmediate(resolve))
    }
    const stats = lstatOrNull(join(this.workspaceDir, path))
    if (!stats) return this.forget(path)
    const folder = stats.isDirectory()
    if (path !== '' && this.isLeftOut(path, folder)) return this.forget(path)
    if (folder) return this.visitFolder(path, stats, seen)
    if (this.watchers.has(path)) this.forgetBelow(path) // a folder replaced by a file
    if (!stats.isFile() && !stats.isSymbolicLink()) return this.forget(path)
    seen?.add(path)
    this.index(path, stats)
  }

  private async visitFolder(path: string, stats: Stats, seen?: Set<string>): Promise<void> {
    const abs = join(this.workspaceDir, path)
    // A nested repository is its own; git leaves it out too.
    if (path !== '' && existsSync(join(abs, '.git'))) return this.forget(path)
    this.forgetEntry(path)
    // Watched before it is read, so nothing created meanwhile is missed.
    this.watchFolder(path, stats.ino)
    this.ignores.delete(path)
    let names: string[]
    try {
      names = readdirSync(abs)
    } catch {
      return this.forget(path)
    }
    const children = names.map((name) => (path ? `${path}/${name}` : name))
    if (!seen) this.forgetMissingChildren(path, new Set(children))
    for (const child of children) {
      if (this.tooLarge || this.failure) return
      await this.visit(child, seen)
    }
  }

  /** Entries and watches directly in `folder` that are no longer among its `children`. */
  private forgetMissingChildren(folder: string, children: Set<string>): void {
    const prefix = folder ? `${folder}/` : ''
    const direct = (path: string) => path.startsWith(prefix) && !path.slice(prefix.length).includes('/')
    for (const known of [...this.entries.keys()])
      if (direct(known) && !children.has(known)) this.forget(known)
    for (const watched of [...this.watchers.keys()])
      if (watched !== folder && direct(watched) && !children.has(watched)) this.forget(watched)
  }

  private watchFolder(path: string, ino: number): void {
    const known = this.watchers.get(path)
    if (known?.ino === ino) return
    if (known) this.forgetWatchersBelow(path)
    if (this.watchers.size >= this.maxFiles / FILES_PER_WATCHED_FOLDER) {
      this.tooLarge = true
      return
    }
    try {
      const watcher = watch(join(this.workspaceDir, path), { persistent: false }, (_event, name) =>
        this.onEvent(path, name === null ? null : String(name))
      )
      watcher.on('error', () => this.onEvent(path, null))
      this.watchers.set(path, { watcher, ino })
    } catch (error) {
      this.fail(`the change watcher could not watch ${path || 'the workspace'} (${messageOf(error)})`)
    }
  }

  private index(path: string, stats: Stats): void {
    const mode = stats.isSymbolicLink() ? MODE_SYMLINK : stats.mode & 0o111 ? MODE_EXECUTABLE : MODE_FILE
    const known = this.entries.get(path)
    if (
      known &&
      known.mode === mode &&
      known.size === stats.size &&
      known.mtimeMs === stats.mtimeMs &&
      known.ino === stats.ino
    )
      return
    if (!known && this.entries.size >= this.maxFiles) {
      this.tooLarge = true
      return
    }
    const abs = join(this.workspaceDir, path)
    // A file too large to keep (or that cannot be read) is known by its stat data alone.
    const content = stats.size > SHELL_CAPTURE_MAX_FILE_BYTES ? null : readContent(abs, stats)
    this.bytesSinceYield += content?.length ?? 0
    const oid = content ? this.storeBlob(content) : `large:${stats.size}:${stats.mtimeMs}:${stats.ino}`
    this.setEntry(path, { oid, mode, size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino })
  }

  private setEntry(path: string, entry: MirrorEntry | undefined): void {
    if (this.journal && !this.journal.has(path)) this.journal.set(path, this.entries.get(path))
    if (entry) this.entries.set(path, entry)
    else this.entries.delete(path)
  }

  private forgetEntry(path: string): void {
    if (this.entries.has(path)) this.setEntry(path, undefined)
  }

  /** A path that is gone (or left out): its entry, and everything below it if it was a folder. */
  private forget(path: string): void {
    this.forgetEntry(path)
    if (this.watchers.has(path) || path === '') this.forgetBelow(path)
  }

  private forgetBelow(path: string): void {
    const prefix = path ? `${path}/` : ''
    for (const known of [...this.entries.keys()])
      if (known.startsWith(prefix)) this.setEntry(known, undefined)
    this.forgetWatchersBelow(path)
  }

  /** Closes the watch of `path` and of every folder below it. */
  private forgetWatchersBelow(path: string): void {
    const prefix = path ? `${path}/` : ''
    for (const [watched, { watcher }] of [...this.watchers])
      if (watched === path || watched.startsWith(prefix)) {
        watcher.close()
        this.watchers.delete(watched)
      }
  }

  /**
   * Left out as git leaves it out: `.git`, the exclusions (lowest precedence, like
   * `info/exclude`) and the `.gitignore` of every folder above, deeper rules overriding; a
   * folder on the way that is left out leaves out everything in it.
   */
  private isLeftOut(path: string, folder: boolean): boolean {
    const parts = path.split('/')
    if (parts.includes('.git')) return true
    if (this.appFolders.some((folder) => path === folder || path.startsWith(`${folder}/`))) return true
    for (let end = 1; end <= parts.length; end++) {
      const isFolder = end < parts.length || folder
      let leftOut = this.excludes.ignores(parts.slice(0, end).join('/') + (isFolder ? '/' : ''))
      for (let level = 0; level < end; level++) {
        const rules = this.rulesOf(parts.slice(0, level).join('/'))
        if (!rules) continue
        const verdict = rules.test(parts.slice(level, end).join('/') + (isFolder ? '/' : ''))
        if (verdict.ignored) leftOut = true
        else if (verdict.unignored) leftOut = false
      }
      if (leftOut) return true
    }
    return false
  }

  private rulesOf(dir: string): Ignore | null {
    if (this.ignores.has(dir)) return this.ignores.get(dir) ?? null
    let text: string | null = null
    try {
      text = readFileSync(join(this.workspaceDir, dir, GIT_IGNORE), 'utf8')
    } catch {
      // No .gitignore here (or unreadable: as if none).
    }
    const rules = text === null ? null : ignore().add(text)
    this.ignores.set(dir, rules)
    return rules
  }

  /**
   * Keeps `content` as a git blob (zlib, `blob <size>\0` header) and returns its id. The write
   * happens just after (the bytes are already in memory, so the file may change meanwhile): a
   * command's result does not wait for it.
   */
  private storeBlob(content: Buffer): string {
    const header = Buffer.from(`blob ${content.length}\0`)
    const oid = createHash('sha1').update(header).update(content).digest('hex')
    if (this.unwritten.has(oid) || existsSync(this.blobFile(oid))) return oid
    this.unwritten.set(oid, Buffer.concat([header, content]))
    this.flushing ??= setImmediate(() => this.writeBlobs())
    return oid
  }

  private writeBlobs(): void {
    this.flushing = null
    const blobs = [...this.unwritten]
    for (const [oid, raw] of blobs) {
      try {
        const file = this.blobFile(oid)
        mkdirSync(join(file, '..'), { recursive: true })
        const small = raw.length < SMALL_BLOB_BYTES
        writeFileSync(
          `${file}.tmp`,
          deflateSync(raw, small ? { level: 1, windowBits: 9, memLevel: 1 } : { level: 1 })
        )
        renameSync(`${file}.tmp`, file)
        this.unwritten.delete(oid)
      } catch (error) {
        // A full disk: the mirror stops, and commands fall back to (or report) no capture.
        this.failure ??= `old contents could not be kept (${messageOf(error)})`
        this.unwritten.clear()
        break
      }
    }
  }

  private blobFile(oid: string): string {
    return join(this.storeDir, 'objects', oid.slice(0, 2), oid.slice(2))
  }

  private readBlob(oid: string): Buffer | null {
    try {
      const raw = this.unwritten.get(oid) ?? inflateSync(readFileSync(this.blobFile(oid)))
      return raw.subarray(raw.indexOf(0) + 1)
    } catch {
      return null
    }
  }

  private fail(why: string): void {
    this.failure ??= why
    this.close()
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? null
  } catch {
    return null
  }
}

/**
 * A file's bytes, or a link's target (never what it points at); null when it cannot be read.
 * Opened without following a link and without blocking, and checked again once open: a file
 * swapped for a FIFO or a link after the lstat must not hang or mislead the main process.
 */
function readContent(path: string, stats: Stats): Buffer | null {
  try {
    if (stats.isSymbolicLink()) return readlinkSync(path, { encoding: 'buffer' })
    const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
    try {
      const opened = fstatSync(fd)
      if (!opened.isFile() || opened.size > SHELL_CAPTURE_MAX_FILE_BYTES) return null
      return readFileSync(fd)
    } finally {
      closeSync(fd)
    }
  } catch {
    return null
  }
}

/** Same file content and kind (an unchanged file, or one put back as it was). */
function sameContent(a: MirrorEntry | undefined, b: MirrorEntry | undefined): boolean {
  if (!a || !b) return a === b
  return a.oid === b.oid && a.mode === b.mode
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message.split('\n')[0] : String(error))
