import type { Migration } from './types'

/**
 * Subagent runs and their tasks (docs/subagents.md), so a run outlives a restart, and each
 * session's subagent slots. Children are ordinary sessions; a task only points at its child.
 */
export const subagentsMigration: Migration = {
  version: 5,
  name: 'subagents',
  up(db) {
    db.exec(`
      CREATE TABLE subagent_runs (
        id TEXT PRIMARY KEY,
        parent_session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        mode TEXT NOT NULL CHECK (mode IN ('parallel', 'chain')),
        background INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL,
        error TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX subagent_runs_by_parent ON subagent_runs (parent_session_id, created_at DESC);
      CREATE INDEX subagent_runs_by_status ON subagent_runs (status);
      CREATE TABLE subagent_tasks (
        run_id TEXT NOT NULL REFERENCES subagent_runs(id) ON DELETE CASCADE,
        task_index INTEGER NOT NULL,
        task_id TEXT NOT NULL,
        slot_id TEXT NOT NULL,
        title TEXT NOT NULL,
        prompt TEXT NOT NULL,
        expected_output TEXT,
        status TEXT NOT NULL,
        child_session_id TEXT,
        assistant_message_id TEXT,
        preview TEXT NOT NULL DEFAULT '',
        result TEXT,
        error TEXT,
        tape_state TEXT NOT NULL DEFAULT 'open' CHECK (tape_state IN ('open', 'merged', 'discarded')),
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (run_id, task_index),
        UNIQUE (run_id, task_id)
      );
      CREATE TABLE session_subagent_slots (
        session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        enabled INTEGER NOT NULL,
        slots_json TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `)
  }
}
