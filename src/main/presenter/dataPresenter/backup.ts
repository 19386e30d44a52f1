import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { dirname, join } from 'node:path'
import * as tar from 'tar'
import Database from 'better-sqlite3'
import { z } from 'zod'
import { AppError } from '@shared/errors'

/**
 * Whole-data backup: one .tar.gz with a manifest, a consistent copy of the database (SQLite's
 * `VACUUM INTO`, safe while the app writes) and the data folders (skills, per-chat data, chat
 * folders). The secrets file (API keys) stays out unless the user opts in: an archive is easy to
 * copy around, and the desktop app's secrets are encrypted for this machine only anyway.
 */

export const BACKUP_FORMAT = 'deepchat-desk.backup'
export const BACKUP_VERSION = 1
export const DATABASE_FILE = 'deepchat.db'
/** Folders of the data folder that hold the user's data (not caches, locks or journals). */
export const BACKUP_FOLDERS = ['skills', 'sessions', 'scratch', 'attachments', 'memory'] as const
const SECRETS_ENTRY = 'secrets'
/** Left in the data folder by a restore chosen in the running app; applied at the next start. */
export const PENDING_RESTORE = 'restore-pending.tar.gz'
/** The same for a daily copy of the database (autoBackup.ts): only the database is replaced. */
export const PENDING_DATABASE_RESTORE = 'restore-pending.db'

export const BackupManifest = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.number().int().positive(),
  /** The newest database migration of the app that made it. */
  schemaVersion: z.number().int().nonnegative(),
  createdAt: z.number().int(),
  appVersion: z.string(),
  includesSecrets: z.boolean(),
  folders: z.array(z.string())
})
export type BackupManifest = z.infer<typeof BackupManifest>

export interface BackupSource {
  db: Database.Database
  dataDir: string
  secretsFile: string
  schemaVersion: number
  appVersion: string
}

/** The newest migration applied to a database. */
export function schemaVersionOf(db: Database.Database): number {
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }
  return row.v ?? 0
}

export function writeBackup(
  source: BackupSource,
  archive: string,
  options: { includeSecrets?: boolean; now?: number } = {}
): BackupManifest {
  const staging = mkdtempSync(join(dirname(archive), '.backup-'))
  try {
    source.db.prepare('VACUUM INTO ?').run(join(staging, DATABASE_FILE))
    const folders = BACKUP_FOLDERS.filter((f) => existsSync(join(source.dataDir, f)))
    for (const folder of folders)
      cpSync(join(source.dataDir, folder), join(staging, folder), { recursive: true })
    const includesSecrets = Boolean(options.includeSecrets) && existsSync(source.secretsFile)
    if (includesSecrets) cpSync(source.secretsFile, join(staging, SECRETS_ENTRY))
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      schemaVersion: source.schemaVersion,
      createdAt: options.now ?? Date.now(),
      appVersion: source.appVersion,
      includesSecrets,
      folders: [...folders]
    }
    writeFileSync(join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2))
    const entries = ['manifest.json', DATABASE_FILE, ...folders, ...(includesSecrets ? [SECRETS_ENTRY] : [])]
    tar.create({ gzip: true, file: archive, cwd: staging, portable: true, sync: true }, entries)
    return manifest
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

/** Unpacks an archive into a new folder beside `near` and checks its manifest; the caller removes it. */
function unpack(
  archive: string,
  near: string,
  schemaVersion: number
): { dir: string; manifest: BackupManifest } {
  mkdirSync(near, { recursive: true })
  const dir = mkdtempSync(join(near, '.restore-'))
  try {
    try {
      tar.extract({ file: archive, cwd: dir, strict: true, sync: true })
    } catch (e) {
      throw new AppError(
        'invalid_backup',
        `This file is not a readable backup archive (${(e as Error).message})`
      )
    }
    const manifest = readManifest(dir)
    if (manifest.version > BACKUP_VERSION || manifest.schemaVersion > schemaVersion)
      throw new AppError(
        'backup_too_new',
        `This backup was made by a newer version of the app (${manifest.appVersion}); update the app to restore it`
      )
    if (!existsSync(join(dir, DATABASE_FILE)))
      throw new AppError('invalid_backup', 'The backup has no database')
    return { dir, manifest }
  } catch (e) {
    rmSync(dir, { recursive: true, force: true })
    throw e
  }
}

function readManifest(dir: string): BackupManifest {
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))
  } catch {
    throw new AppError('invalid_backup', 'This file is not a DeepChat Desk backup (no manifest)')
  }
  const head = z.object({ format: z.string() }).safeParse(raw)
  if (!head.success || head.data.format !== BACKUP_FORMAT)
    throw new AppError('invalid_backup', 'This file is not a DeepChat Desk backup')
  const parsed = BackupManifest.safeParse(raw)
  if (!parsed.success) throw new AppError('invalid_backup', z.prettifyError(parsed.error))
  return parsed.data
}

/** Checks an archive without changing anything: its manifest, or a clear error. */
export function inspectBackup(archive: string, scratchDir: string, schemaVersion: number): BackupManifest {
  const { dir, manifest } = unpack(archive, scratchDir, schemaVersion)
  rmSync(dir, { recursive: true, force: true })
  return manifest
}

/**
 * Restores an archive into a data folder that no running app has open (empty or existing): the
 * database and the backed-up folders are replaced; the secrets file only when the archive has one.
 */
export function restoreBackup(
  archive: string,
  dataDir: string,
  options: { schemaVersion: number; secretsFile: string }
): BackupManifest {
  const { dir, manifest } = unpack(archive, dataDir, options.schemaVersion)
  try {
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dataDir, DATABASE_FILE + suffix), { force: true })
    renameSync(join(dir, DATABASE_FILE), join(dataDir, DATABASE_FILE))
    for (const folder of BACKUP_FOLDERS) {
      rmSync(join(dataDir, folder), { recursive: true, force: true })
      if (manifest.folders.includes(folder) && existsSync(join(dir, folder)))
        renameSync(join(dir, folder), join(dataDir, folder))
    }
    if (manifest.includesSecrets && existsSync(join(dir, SECRETS_ENTRY))) {
      mkdirSync(dirname(options.secretsFile), { recursive: true })
      cpSync(join(dir, SECRETS_ENTRY), options.secretsFile)
    }
    return manifest
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** At start-up, before the database opens: applies a restore the user confirmed in the running app. */
export function applyPendingRestore(
  dataDir: string,
  options: { schemaVersion: number; secretsFile: string }
): BackupManifest | null {
  const pending = join(dataDir, PENDING_RESTORE)
  if (!existsSync(pending)) return null
  try {
    return restoreBackup(pending, dataDir, options)
  } finally {
    rmSync(pending, { force: true })
  }
}

/**
 * Checks a daily database copy without changing anything: a readable SQLite database of this
 * app whose schema is not newer than this build's. Returns its schema version.
 */
export function inspectDatabaseBackup(file: string, schemaVersion: number, nativeBinding?: string): number {
  let db: Database.Database | undefined
  try {
    db = new Database(file, {
      readonly: true,
      fileMustExist: true,
      ...(nativeBinding ? { nativeBinding } : {})
    })
    const check = db.pragma('quick_check(1)', { simple: true })
    if (check !== 'ok')
      throw new AppError('invalid_backup', `This database copy is damaged (${String(check)})`)
    const version = schemaVersionOf(db)
    if (version > schemaVersion)
      throw new AppError(
        'backup_too_new',
        'This backup was made by a newer version of the app; update the app to restore it'
      )
    return version
  } catch (e) {
    if (e instanceof AppError) throw e
    throw new AppError(
      'invalid_backup',
      `This file is not a DeepChat Desk database (${(e as Error).message})`
    )
  } finally {
    db?.close()
  }
}

/**
 * At start-up, before the database opens: puts a staged database copy in place. The database it
 * replaces is kept beside it (`deepchat.db.before-restore-<time>`), never deleted. Returns where.
 */
export function applyPendingDatabaseRestore(dataDir: string, now = Date.now()): string | null {
  const pending = join(dataDir, PENDING_DATABASE_RESTORE)
  if (!existsSync(pending)) return null
  const current = join(dataDir, DATABASE_FILE)
  const kept = `${current}.before-restore-${new Date(now).toISOString().replace(/[:.]/g, '-')}`
  for (const suffix of ['', '-wal', '-shm'])
    if (existsSync(current + suffix)) renameSync(current + suffix, kept + suffix)
  renameSync(pending, current)
  return kept
}

export const backupFileName = (now: number) =>
  `deepchat-backup-${new Date(now).toISOString().slice(0, 19).replace(/[:T]/g, '-')}.tar.gz`
