import { closeSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type Database from 'better-sqlite3'

/** `deepchat-auto-2026-12-04.db`: one copy of the database per day. */
const AUTO_NAME = /^deepchat-auto-(\d{4}-\d\d-\d\d)\.db$/
/** Whole-data archives made from Settings › Data (backup.ts). */
const ARCHIVE_NAME = /^deepchat-backup-.*\.tar\.gz$/
/** A database copy the user uploaded from a browser (`DataPresenter.receiveBackup`). */
const UPLOADED_DATABASE_NAME = /^deepchat-upload-.*\.db$/
const DAY_MS = 24 * 60 * 60 * 1000

export interface BackupFile {
  path: string
  /** `database`: a daily automatic copy of the database; `archive`: a whole-data backup. */
  kind: 'database' | 'archive'
  createdAt: number
  bytes: number
}

export interface AutoBackupDeps {
  db: Database.Database
  /** The folder backups go to (the setting, or `<data>/backups`). */
  folder: () => string
  /** Days to keep daily copies; 0 turns them off. */
  keepDays: () => number
  log: (message: string) => void
  now?: () => number
  /** How often the day is checked (ms): a backup is made once the date has changed. */
  checkEveryMs?: number
}

/**
 * Daily copies of the database with SQLite's online backup API (`db.backup`: consistent while
 * the app writes, in small steps that do not block it), kept for N days, in a folder the user
 * may change. Files are created 0600 in a 0700 folder: they hold every chat.
 */
export class AutoBackups {
  private timer: NodeJS.Timeout | null = null
  private first: NodeJS.Timeout | null = null
  private running: Promise<string | null> | null = null
  private readonly now: () => number

  constructor(private readonly deps: AutoBackupDeps) {
    this.now = deps.now ?? Date.now
  }

  /** Makes today's copy soon after start when it is missing, then checks every hour. */
  start(): void {
    const tick = () =>
      void this.runIfDue().catch((error: unknown) =>
        this.deps.log(`Automatic backup failed: ${error instanceof Error ? error.message : String(error)}`)
      )
    this.timer = setInterval(tick, this.deps.checkEveryMs ?? 60 * 60 * 1000)
    this.timer.unref()
    this.first = setTimeout(tick, 5_000)
    this.first.unref()
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer)
    if (this.first) clearTimeout(this.first)
    this.timer = null
    this.first = null
  }

  /** Today's copy when there is none yet (and backups are on); old copies pruned. Null: nothing to do. */
  runIfDue(): Promise<string | null> {
    if (this.deps.keepDays() <= 0) return Promise.resolve(null)
    const target = join(this.deps.folder(), `deepchat-auto-${day(this.now())}.db`)
    if (this.list().some((b) => b.path === target)) return Promise.resolve(null)
    this.running ??= this.backUpTo(target).finally(() => (this.running = null))
    return this.running
  }

  /** Backups in the folder, newest first. */
  list(): BackupFile[] {
    const folder = this.deps.folder()
    let names: string[]
    try {
      names = readdirSync(folder)
    } catch {
      return []
    }
    const files: BackupFile[] = []
    for (const name of names) {
      const auto = AUTO_NAME.exec(name) ?? UPLOADED_DATABASE_NAME.exec(name)
      if (!auto && !ARCHIVE_NAME.test(name)) continue
      try {
        const stats = statSync(join(folder, name))
        files.push({
          path: join(folder, name),
          kind: auto ? 'database' : 'archive',
          createdAt: stats.mtimeMs,
          bytes: stats.size
        })
      } catch {
        // Removed meanwhile.
      }
    }
    return files.sort((a, b) => b.createdAt - a.createdAt)
  }

  private async backUpTo(target: string): Promise<string> {
    const folder = this.deps.folder()
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    const partial = `${target}.partial`
    rmSync(partial, { force: true })
    // Private from the start: SQLite writes into the empty file it finds.
    closeSync(openSync(partial, 'wx', 0o600))
    try {
      await this.deps.db.backup(partial)
      renameSync(partial, target)
    } catch (error) {
      rmSync(partial, { force: true })
      throw error
    }
    this.prune()
    this.deps.log(`Automatic backup: ${target}`)
    return target
  }

  /** Daily copies older than the kept days go; whole-data archives are the user's and stay. */
  private prune(): void {
    const keep = this.deps.keepDays()
    const oldest = day(this.now() - (keep - 1) * DAY_MS)
    for (const name of readdirSync(this.deps.folder())) {
      const match = AUTO_NAME.exec(name)
      if (match && match[1] < oldest) rmSync(join(this.deps.folder(), name), { force: true })
    }
  }
}

function day(time: number): string {
  return new Date(time).toISOString().slice(0, 10)
}
