import Database from 'better-sqlite3'
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Migration } from './migrations/types'
import { allMigrations } from './migrations'

export type Db = Database.Database

export interface SqliteOptions {
  file: string
  migrations?: readonly Migration[]
  /** better-sqlite3 `.node` file built for Electron's ABI, when running inside Electron. */
  nativeBinding?: string
}

/**
 * Owns the one SQLite connection: WAL, foreign keys, numbered migrations applied once at
 * start, and a transaction helper. Other presenters get this object, never the file path.
 */
export class SqlitePresenter {
  readonly db: Db
  readonly file: string

  constructor(options: SqliteOptions) {
    this.file = options.file
    // Private from the start: SQLite gives its -wal and -shm the database file's mode.
    mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 })
    if (!existsSync(options.file)) createPrivateFile(options.file)
    this.db = new Database(
      options.file,
      options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}
    )
    reuseStatements(this.db)
    try {
      this.db.pragma('journal_mode = WAL')
      this.db.pragma('synchronous = NORMAL')
      this.db.pragma('foreign_keys = ON')
      this.db.pragma('busy_timeout = 5000')
      this.migrate(options.migrations ?? allMigrations)
    } catch (error) {
      this.db.close() // not a database, damaged, read-only: the caller decides; no handle left open
      throw error
    }
  }

  /** One transaction wrapper for every call (building one per call showed in a turn's profile). */
  private readonly runInTransaction = (fn: (db: Db) => unknown): unknown => fn(this.db)
  private transactionFn?: Database.Transaction<(fn: (db: Db) => unknown) => unknown>

  /** Runs `fn` in an IMMEDIATE transaction (takes the write lock up front: no upgrade deadlocks). */
  transaction<T>(fn: (db: Db) => T): T {
    this.transactionFn ??= this.db.transaction(this.runInTransaction)
    return this.transactionFn.immediate(fn) as T
  }

  appliedMigrations(): { version: number; name: string; appliedAt: number }[] {
    return this.db
      .prepare('SELECT version, name, applied_at AS appliedAt FROM schema_migrations ORDER BY version')
      .all() as { version: number; name: string; appliedAt: number }[]
  }

  close(): void {
    if (this.db.open) this.db.close()
  }

  private migrate(migrations: readonly Migration[]): void {
    assertOrdered(migrations)
    this.db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at INTEGER NOT NULL
    )`)
    const applied = new Set(
      (this.db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map(
        (r) => r.version
      )
    )
    const record = this.db.prepare(
      'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)'
    )
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue
      this.transaction((db) => {
        migration.up(db)
        record.run(migration.version, migration.name, Date.now())
      })
    }
  }
}

function createPrivateFile(file: string): void {
  try {
    closeSync(openSync(file, 'wx', 0o600))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
}

function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (index > 0 && migration.version <= migrations[index - 1].version) {
      throw new Error(`migration ${migration.version} (${migration.name}) is out of order`)
    }
  })
}

/** Distinct statement texts kept compiled; the app has a fixed set of a few hundred. */
const STATEMENT_CACHE_SIZE = 1000

/**
 * better-sqlite3 compiles the SQL at every `prepare()`, and the presenters prepare where they run
 * (about a tenth of a chat turn's own time went to compiling the same texts again). Each text is
 * compiled once and its statement handed out again, reset to plain rows; a statement still
 * running (mid-iterate) is never handed out twice: that caller gets a fresh one.
 */
function reuseStatements(db: Db): void {
  const compile = db.prepare.bind(db)
  const compiled = new Map<string, Database.Statement>()
  const prepare = (source: string): Database.Statement => {
    const cached = compiled.get(source)
    if (cached && !cached.busy) {
      if (cached.reader) cached.raw(false).pluck(false).expand(false)
      return cached
    }
    const statement = compile(source)
    if (!cached) {
      if (compiled.size >= STATEMENT_CACHE_SIZE) compiled.delete(compiled.keys().next().value!)
      compiled.set(source, statement)
    }
    return statement
  }
  db.prepare = prepare as Db['prepare']
}
