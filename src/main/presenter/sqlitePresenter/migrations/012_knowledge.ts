import type { Migration } from './types'

/**
 * Knowledge bases: their sources, the files found in them, chunks with their place in the file,
 * and an FTS5 index over chunk text. The vectors live in sqlite-vec `vec0` tables, one per
 * dimension (`knowledge_vec_<dim>`, partitioned by base), made by the knowledge store once the
 * extension is loaded (knowledgePresenter/vectorIndex.ts): a migration cannot assume it is.
 */
export const knowledgeMigration: Migration = {
  version: 12,
  name: 'knowledge',
  up(db) {
    // \`vec_key\`: the base's partition in the vec0 tables (an integer that VACUUM never renumbers).
    db.exec(`CREATE TABLE knowledge_bases (
      vec_key INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      provider_id TEXT NOT NULL,
      model_id TEXT NOT NULL,
      dimensions INTEGER,
      status TEXT NOT NULL DEFAULT 'queued',
      last_indexed_at INTEGER,
      last_error TEXT,
      created_at INTEGER NOT NULL
    );
    CREATE TABLE knowledge_sources (
      id TEXT PRIMARY KEY,
      base_id TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('file', 'folder')),
      path TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      UNIQUE (base_id, path)
    );
    CREATE TABLE knowledge_files (
      id INTEGER PRIMARY KEY,
      base_id TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
      source_id TEXT NOT NULL REFERENCES knowledge_sources(id) ON DELETE CASCADE,
      path TEXT NOT NULL,
      size INTEGER NOT NULL,
      mtime_ms INTEGER NOT NULL,
      hash TEXT NOT NULL,
      -- 'indexed' once every chunk is embedded; anything else is redone by the next run.
      state TEXT NOT NULL CHECK (state IN ('pending', 'indexed', 'failed', 'skipped')),
      error_code TEXT,
      error TEXT,
      chunk_count INTEGER NOT NULL DEFAULT 0,
      indexed_at INTEGER,
      UNIQUE (base_id, path)
    );
    CREATE INDEX knowledge_files_source ON knowledge_files(source_id);
    CREATE TABLE knowledge_chunks (
      id INTEGER PRIMARY KEY,
      base_id TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
      file_id INTEGER NOT NULL REFERENCES knowledge_files(id) ON DELETE CASCADE,
      ord INTEGER NOT NULL,
      text TEXT NOT NULL,
      -- KnowledgeLocation as JSON: {kind:'page',page} | {kind:'lines',startLine,endLine} | {kind:'sheet',...}
      location TEXT NOT NULL,
      embedded INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX knowledge_chunks_file ON knowledge_chunks(file_id);
    CREATE INDEX knowledge_chunks_pending ON knowledge_chunks(base_id, embedded);
    CREATE VIRTUAL TABLE knowledge_chunks_fts USING fts5(
      text, content='knowledge_chunks', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER knowledge_chunks_ai AFTER INSERT ON knowledge_chunks BEGIN
      INSERT INTO knowledge_chunks_fts(rowid, text) VALUES (new.id, new.text);
    END;
    CREATE TRIGGER knowledge_chunks_ad AFTER DELETE ON knowledge_chunks BEGIN
      INSERT INTO knowledge_chunks_fts(knowledge_chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
    END;
    CREATE TABLE knowledge_session_bases (
      session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      base_id TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      PRIMARY KEY (session_id, base_id)
    );`)
  }
}
