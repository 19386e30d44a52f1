import type { Migration } from './types'

/** Remembered "Always allow" / deny decisions (docs/permissions.md). */
export const permissionRulesMigration: Migration = {
  version: 3,
  name: 'permission_rules',
  up(db) {
    db.exec(`CREATE TABLE permission_rules (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('read', 'write', 'exec', 'mcp', 'settings')),
      pattern TEXT NOT NULL,
      effect TEXT NOT NULL CHECK (effect IN ('allow', 'deny')),
      created_at INTEGER NOT NULL,
      UNIQUE (kind, pattern, effect)
    )`)
  }
}
