import { join } from 'node:path'
import { appStorageChanged } from '@shared/contracts/events/app.events'
import type { EventSink } from '../../bridge/events'
import type { Platform } from '../../platform/types'
import { ConfigPresenter } from '../configPresenter'
import { LATEST_SCHEMA_VERSION } from '../dataPresenter'
import { AutoBackups } from '../dataPresenter/autoBackup'
import { applyPendingDatabaseRestore, applyPendingRestore } from '../dataPresenter/backup'
import type { SqlitePresenter } from '../sqlitePresenter'
import { openDatabase } from '../sqlitePresenter/damaged'
import { StorageGuard } from '../sqlitePresenter/storageGuard'
import { Workspaces } from '../sessionPresenter/workspaces'

export const DATABASE_FILE = 'deepchat.db'

export interface AppStorage {
  sqlite: SqlitePresenter
  storage: StorageGuard
  config: ConfigPresenter
  workspaces: Workspaces
  backups: AutoBackups
  /** Where backups go: the folder chosen in Settings, else `<data>/backups`. */
  backupFolder: () => string
}

/**
 * The data folder opened: a restore the user confirmed in the last run applied first, the
 * database (a damaged one moved aside, a fresh one made), settings, the daily backups and the
 * guard that notices a full, read-only or removed data folder.
 */
export function openAppStorage(
  platform: Platform,
  parts: { events: EventSink; log: (message: string) => void; damagedDatabase: { reason: string } | null }
): AppStorage {
  const { events, log } = parts
  // A restore the user confirmed in the last run replaces the data before anything opens it.
  applyPendingRestore(platform.userDataDir, {
    schemaVersion: LATEST_SCHEMA_VERSION,
    secretsFile: platform.secretsFile
  })
  const keptBeforeRestore = applyPendingDatabaseRestore(platform.userDataDir)
  if (keptBeforeRestore)
    log(`Restored the database from a backup; the one it replaced is at ${keptBeforeRestore}`)
  // A file that is not a database, or a damaged one, is moved aside and a fresh one created.
  const databaseFile = join(platform.userDataDir, DATABASE_FILE)
  const opened = openDatabase(
    { file: databaseFile, nativeBinding: platform.sqliteNativeBinding },
    parts.damagedDatabase,
    log
  )
  const sqlite = opened.sqlite
  const workspaces = new Workspaces({ dataDir: platform.userDataDir })
  const config = new ConfigPresenter({
    sqlite,
    secrets: platform.secrets,
    events,
    validateWorkspace: (path) => workspaces.validate(path)
  })
  const backupFolder = () => config.getSettings().backupFolder || join(platform.userDataDir, 'backups')
  const backups = new AutoBackups({
    db: sqlite.db,
    folder: backupFolder,
    keepDays: () => config.getSettings().autoBackupDays,
    log
  })
  // After the backups: a damaged database's notice names the latest one.
  const storage = new StorageGuard({
    dataDir: platform.userDataDir,
    databaseFile,
    stopWrites: () => sqlite.db.pragma('query_only = ON'),
    log,
    damaged: opened.damaged,
    latestBackup: () => backups.list()[0]?.path ?? null
  })
  storage.onChange(() => events.emit(appStorageChanged, storage.status()))
  storage.start()
  return { sqlite, storage, config, workspaces, backups, backupFolder }
}
