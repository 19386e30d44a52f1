import type { Migration } from './types'

export const settingsMigration: Migration = {
  version: 1,
  name: 'settings',
  up(db) {
    db.exec(`CREATE TABLE settings (
      key TEXT PRIMARY KEY,
      value_json TEXT NOT NULL,
      updated_at INTEGER NOT NULL
    )`)
  }
}
