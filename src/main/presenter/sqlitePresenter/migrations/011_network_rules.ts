import type { Migration } from './types'

/** Permission rules may name a domain (`network`: web_fetch's "always for this domain"). */
export const networkRulesMigration: Migration = {
  version: 11,
  name: 'network_rules',
  up(db) {
    db.exec(`CREATE TABLE permission_rules_next (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('read', 'write', 'exec', 'mcp', 'settings', 'network')),
      pattern TEXT NOT NULL,
      effect TEXT NOT NULL CHECK (effect IN ('allow', 'deny')),
      created_at INTEGER NOT NULL,
      UNIQUE (kind, pattern, effect)
    );
    INSERT INTO permission_rules_next (id, kind, pattern, effect, created_at)
      SELECT id, kind, pattern, effect, created_at FROM permission_rules;
    DROP TABLE permission_rules;
    ALTER TABLE permission_rules_next RENAME TO permission_rules;`)
  }
}
