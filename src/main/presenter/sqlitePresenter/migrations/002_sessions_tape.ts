import type Database from 'better-sqlite3'
import type { Migration } from './types'

/**
 * Sessions, the append-only tape, the message/block projection the UI reads, pending
 * interactions and the full-text index over tape entries.
 */
export const sessionsTapeMigration: Migration = {
  version: 2,
  name: 'sessions_tape',
  up(db) {
    createSessionsTapeSchema(db, 'trigram')
  }
}

/** The schema of this migration; tests pass `unicode61` to exercise builds without trigram. */
export function createSessionsTapeSchema(
  db: Database.Database,
  preferredTokenizer: 'trigram' | 'unicode61'
): void {
  db.exec(`
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('regular', 'subagent')),
        parent_session_id TEXT REFERENCES sessions(id),
        tape_id TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL,
        workspace_dir TEXT,
        provider_id TEXT,
        model_id TEXT,
        permission_mode TEXT NOT NULL DEFAULT 'default',
        generation_settings_json TEXT NOT NULL DEFAULT '{}',
        subagent_meta_json TEXT,
        pinned INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'idle'
          CHECK (status IN ('idle', 'generating', 'awaiting_interaction', 'error')),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        last_activity_at INTEGER NOT NULL,
        CHECK ((kind = 'subagent') = (parent_session_id IS NOT NULL))
      );
      CREATE INDEX sessions_listing ON sessions (kind, pinned DESC, last_activity_at DESC, id);
      CREATE INDEX sessions_by_parent ON sessions (parent_session_id);

      -- One row per tape: the head counter makes entry ids gap-free inside the insert's
      -- transaction, last_created_at keeps created_at monotonic, purging unlocks DELETE.
      CREATE TABLE tapes (
        id TEXT PRIMARY KEY,
        session_id TEXT,
        parent_tape_id TEXT,
        fork_id TEXT,
        fork_status TEXT CHECK (fork_status IN ('open', 'merged', 'discarded')),
        parent_head_entry_id INTEGER,
        head_entry_id INTEGER NOT NULL DEFAULT 0,
        last_created_at INTEGER NOT NULL DEFAULT 0,
        purging INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        CHECK ((parent_tape_id IS NULL) = (fork_id IS NULL))
      );
      CREATE INDEX tapes_by_parent ON tapes (parent_tape_id);
      CREATE INDEX tapes_by_session ON tapes (session_id);

      CREATE TABLE tape_entries (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        tape_id TEXT NOT NULL REFERENCES tapes(id),
        entry_id INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('message', 'tool_call', 'tool_result', 'anchor', 'event')),
        name TEXT,
        payload_json TEXT NOT NULL CHECK (json_valid(payload_json)),
        meta_json TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(meta_json)),
        provenance_key TEXT,
        search_text TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        UNIQUE (tape_id, entry_id)
      );
      CREATE UNIQUE INDEX tape_entries_provenance ON tape_entries (tape_id, provenance_key)
        WHERE provenance_key IS NOT NULL;
      CREATE INDEX tape_entries_by_kind ON tape_entries (tape_id, kind, entry_id);
      CREATE INDEX tape_entries_by_time ON tape_entries (tape_id, created_at);
      -- Lets search filter full-text candidates without reading their (large) rows.
      CREATE INDEX tape_entries_search_filter ON tape_entries (seq, tape_id, kind, created_at);

      CREATE TRIGGER tape_entries_reject_update BEFORE UPDATE ON tape_entries
      BEGIN
        SELECT RAISE(ABORT, 'tape_entries is append-only: UPDATE is not allowed');
      END;
      CREATE TRIGGER tape_entries_delete_only_on_purge BEFORE DELETE ON tape_entries
      WHEN NOT EXISTS (SELECT 1 FROM tapes WHERE id = OLD.tape_id AND purging = 1)
      BEGIN
        SELECT RAISE(ABORT, 'tape_entries is append-only: rows leave only when their session is purged');
      END;

      CREATE TABLE messages (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        order_seq INTEGER NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
        status TEXT NOT NULL
          CHECK (status IN ('pending', 'streaming', 'awaiting_interaction', 'sent', 'error', 'cancelled')),
        content_json TEXT,
        metadata_json TEXT NOT NULL DEFAULT '{}',
        tape_entry_id INTEGER,
        revision INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (session_id, order_seq)
      );
      CREATE INDEX messages_by_status ON messages (status) WHERE status IN ('pending', 'streaming');

      CREATE TABLE message_blocks (
        id TEXT NOT NULL,
        message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        block_index INTEGER NOT NULL,
        kind TEXT NOT NULL
          CHECK (kind IN ('content', 'reasoning_content', 'tool_call', 'action', 'plan', 'image', 'error')),
        status TEXT NOT NULL
          CHECK (status IN ('pending', 'loading', 'success', 'error', 'granted', 'denied', 'cancelled')),
        text TEXT NOT NULL DEFAULT '',
        tool_call_json TEXT,
        data_json TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (message_id, id),
        UNIQUE (message_id, block_index)
      );

      CREATE TABLE pending_interactions (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        block_id TEXT,
        tool_call_id TEXT,
        kind TEXT NOT NULL CHECK (kind IN ('permission', 'question')),
        status TEXT NOT NULL CHECK (status IN ('pending', 'granted', 'denied', 'answered', 'cancelled')),
        request_json TEXT NOT NULL,
        response_json TEXT,
        created_at INTEGER NOT NULL,
        resolved_at INTEGER
      );
      CREATE INDEX pending_interactions_by_message ON pending_interactions (message_id, status);
      CREATE INDEX pending_interactions_by_session ON pending_interactions (session_id, status);
    `)
  createTapeSearchIndex(db, preferredTokenizer)
}

/**
 * FTS5 over tape entries, reading its text from `tape_entries.search_text` (external content:
 * the text is stored once). Trigram matches substrings in any script; builds without it get
 * unicode61 and the search falls back to substring matching where tokens would not match.
 *
 * The index trails the tape: appends commit without it and the indexer adds rows up to
 * `tape_index_state.indexed_seq` right after (trigram indexing costs more than the append
 * itself). `seq` is AUTOINCREMENT so a purged row's number is never reused below the mark.
 */
function createTapeSearchIndex(db: Database.Database, preferredTokenizer: 'trigram' | 'unicode61'): void {
  const create = (tokenizer: string) =>
    db.exec(
      `CREATE VIRTUAL TABLE tape_fts USING fts5(search_text, content='tape_entries', content_rowid='seq', tokenize='${tokenizer}')`
    )
  try {
    if (preferredTokenizer !== 'trigram') throw new Error('trigram not wanted')
    create('trigram')
  } catch {
    create('unicode61 remove_diacritics 2')
  }
  db.exec(`
    CREATE TABLE tape_index_state (id INTEGER PRIMARY KEY CHECK (id = 1), indexed_seq INTEGER NOT NULL);
    INSERT INTO tape_index_state (id, indexed_seq) VALUES (1, 0);
    CREATE TRIGGER tape_entries_fts_delete AFTER DELETE ON tape_entries
    WHEN OLD.seq <= (SELECT indexed_seq FROM tape_index_state WHERE id = 1)
    BEGIN
      INSERT INTO tape_fts (tape_fts, rowid, search_text) VALUES ('delete', OLD.seq, OLD.search_text);
    END;
  `)
}
