import type { Migration } from './types'

/**
 * The stream journal: every delta batch a run sends to the renderer is first appended here, so
 * what the user has seen survives a kill -9. Rows live only while their message streams: the
 * settling write (finish, pause, crash recovery) folds them into `message_blocks` and deletes
 * them in the same transaction. Append-only while they live: the cost of a batch is its own
 * size, never the message's.
 */
export const streamJournalMigration: Migration = {
  version: 9,
  name: 'stream_journal',
  up(db) {
    db.exec(`
      CREATE TABLE message_stream_deltas (
        id INTEGER PRIMARY KEY,
        message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        run_id TEXT NOT NULL,
        seq INTEGER NOT NULL CHECK (seq > 0),
        ops_json TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        UNIQUE (message_id, run_id, seq)
      );
    `)
  }
}
