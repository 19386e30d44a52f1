import type { Migration } from './types'

/**
 * Agent memories with a full-text index (docs/skills-memory.md), and per-session agent state:
 * tool switches and active skills.
 */
export const memoryMigration: Migration = {
  version: 4,
  name: 'memory',
  up(db) {
    db.exec(`
      CREATE TABLE agent_memories (
        id TEXT PRIMARY KEY,
        agent_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('semantic', 'episodic')),
        category TEXT,
        content TEXT NOT NULL,
        content_key TEXT NOT NULL,
        importance REAL NOT NULL CHECK (importance >= 0 AND importance <= 1),
        source_session_id TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (agent_id, content_key)
      );
      CREATE INDEX agent_memories_by_agent ON agent_memories (agent_id, updated_at DESC);
      -- Kept in step by MemoryPresenter in the same transaction as the row.
      CREATE VIRTUAL TABLE agent_memories_fts USING fts5(
        content, memory_id UNINDEXED, agent_id UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE TABLE session_agent_state (
        session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        disabled_tools_json TEXT NOT NULL DEFAULT '[]',
        enabled_tools_json TEXT NOT NULL DEFAULT '[]',
        active_skills_json TEXT NOT NULL DEFAULT '[]',
        updated_at INTEGER NOT NULL
      );
    `)
  }
}
