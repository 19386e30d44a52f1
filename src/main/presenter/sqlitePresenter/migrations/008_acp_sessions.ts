import type { Migration } from './types'

/**
 * Which ACP agent session belongs to which chat, and in which folder it was started, so a chat
 * continues after a restart (`session/resume` or `session/load`). Keyed by chat and agent: a
 * chat may talk to more than one agent. No foreign key to `sessions`: purging a chat deletes
 * its rows through AcpPresenter.forgetChat.
 */
export const acpSessionsMigration: Migration = {
  version: 8,
  name: 'acp_sessions',
  up(db) {
    db.exec(`
      CREATE TABLE acp_sessions (
        chat_session_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        workspace_dir TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (chat_session_id, agent_id)
      );
      CREATE INDEX idx_acp_sessions_agent ON acp_sessions(agent_id);
    `)
  }
}
