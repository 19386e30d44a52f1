import { existsSync, renameSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { SqlitePresenter, type SqliteOptions } from './index'

/** Codes with which SQLite says a file is not a database or its pages are damaged. */
export function isDamagedDatabaseError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'))
}

/**
 * Renames a damaged database and its `-wal`/`-shm` to `<name>.damaged-<time>` (nothing is
 * deleted: the user may want it, or a tool may recover more of it). Returns the new path.
 */
export function moveDamagedAside(file: string, now = Date.now()): string {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-')
  const target = `${file}.damaged-${stamp}`
  for (const suffix of ['', '-wal', '-shm', '-journal'])
    if (existsSync(file + suffix)) renameSync(file + suffix, target + suffix)
  return target
}

export interface QuickCheckResult {
  status: 'ok' | 'damaged' | 'timeout'
  /** SQLite's words when damaged. */
  reason?: string
}

// Runs in a worker so a huge or pathological file cannot hold the start past its budget.
const QUICK_CHECK_WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.module)
try {
  const db = new Database(workerData.file, {
    readonly: true,
    fileMustExist: true,
    ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {})
  })
  const rows = db.pragma('quick_check(5)', { simple: false })
  db.close()
  const problems = rows.map((row) => row.quick_check).filter((text) => text !== 'ok')
  parentPort.postMessage(problems.length ? { status: 'damaged', reason: problems.join('; ') } : { status: 'ok' })
} catch (error) {
  parentPort.postMessage({ status: 'failed', code: error && error.code, reason: String(error && error.message || error) })
}
`

/**
 * `PRAGMA quick_check` on an existing database within `budgetMs`. A file SQLite cannot open as
 * a database counts as damaged; a check that takes longer than the budget is abandoned (the
 * start goes on; the open itself still catches a file that is not a database).
 */
export function quickCheck(
  file: string,
  options: { budgetMs: number; nativeBinding?: string }
): Promise<QuickCheckResult> {
  if (!existsSync(file)) return Promise.resolve({ status: 'ok' })
  let worker: Worker
  try {
    worker = new Worker(QUICK_CHECK_WORKER, {
      eval: true,
      workerData: {
        file,
        module: createRequire(import.meta.url).resolve('better-sqlite3'),
        nativeBinding: options.nativeBinding
      }
    })
  } catch {
    // No worker here: the open still catches a file that is not a database.
    return Promise.resolve({ status: 'ok' })
  }
  return new Promise<QuickCheckResult>((resolve) => {
    const timer = setTimeout(() => {
      resolve({ status: 'timeout' })
      void worker.terminate()
    }, options.budgetMs)
    const settle = (result: QuickCheckResult) => {
      clearTimeout(timer)
      resolve(result)
      void worker.terminate()
    }
    worker.once('message', (message: { status: string; code?: string; reason?: string }) => {
      if (message.status === 'ok') return settle({ status: 'ok' })
      if (message.status === 'damaged' || isDamagedDatabaseError(message))
        return settle({ status: 'damaged', reason: message.reason })
      // Locked, unreadable, out of memory: not damage; the open will report it.
      settle({ status: 'ok' })
    })
    worker.once('error', () => settle({ status: 'ok' }))
    // Ended without an answer (the native module could not load there): no check this time.
    worker.once('exit', () => settle({ status: 'ok' }))
  })
}

export interface OpenedDatabase {
  sqlite: SqlitePresenter
  /** Set when the file was not a database or was damaged and has been moved aside. */
  damaged: { movedTo: string; reason: string } | null
}

/**
 * Opens the database; a file SQLite calls not-a-database or damaged (here or in the start's
 * quick_check, passed as `knownDamage`) is moved aside and a fresh one created in its place.
 */
export function openDatabase(
  options: SqliteOptions,
  knownDamage: { reason: string } | null = null,
  log: (message: string) => void = () => {}
): OpenedDatabase {
  if (knownDamage) return openFresh(options, knownDamage.reason, log)
  try {
    return { sqlite: new SqlitePresenter(options), damaged: null }
  } catch (error) {
    if (!isDamagedDatabaseError(error)) throw error
    return openFresh(options, (error as Error).message, log)
  }
}

function openFresh(options: SqliteOptions, reason: string, log: (message: string) => void): OpenedDatabase {
  const movedTo = moveDamagedAside(options.file)
  log(`The database ${options.file} is damaged (${reason}): moved to ${movedTo}; starting with a new one.`)
  return { sqlite: new SqlitePresenter(options), damaged: { movedTo, reason } }
}
