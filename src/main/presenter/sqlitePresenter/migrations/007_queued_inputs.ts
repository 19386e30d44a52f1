import type { Migration } from './types'

/**
 * Steering input typed while a reply runs. It waits here, not in memory, so a restart or a
 * crash before the next tool boundary loses none of what the user wrote.
 */
export const queuedInputsMigration: Migration = {
  version: 7,
  name: 'queued_inputs',
  up(db) {
    db.exec(`
      CREATE TABLE queued_inputs (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        text TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX idx_queued_inputs_session ON queued_inputs(session_id, created_at);
    `)
  }
}
