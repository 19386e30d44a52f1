import type { SqlitePresenter } from '../sqlitePresenter'

export interface StoredAcpSession {
  chatSessionId: string
  agentId: string
  sessionId: string
  workspaceDir: string
}

/** `(chat, agent) → agent session id, workspace` in SQLite (migration 8). */
export class AcpSessionStore {
  constructor(private readonly sqlite: Pick<SqlitePresenter, 'db'>) {}

  get(chatSessionId: string, agentId: string): StoredAcpSession | undefined {
    const row = this.sqlite.db
      .prepare(
        `SELECT chat_session_id AS chatSessionId, agent_id AS agentId, session_id AS sessionId,
                workspace_dir AS workspaceDir
         FROM acp_sessions WHERE chat_session_id = ? AND agent_id = ?`
      )
      .get(chatSessionId, agentId) as StoredAcpSession | undefined
    return row
  }

  save(session: StoredAcpSession): void {
    const now = Date.now()
    this.sqlite.db
      .prepare(
        `INSERT INTO acp_sessions (chat_session_id, agent_id, session_id, workspace_dir, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(chat_session_id, agent_id) DO UPDATE SET
           session_id = excluded.session_id, workspace_dir = excluded.workspace_dir,
           updated_at = excluded.updated_at`
      )
      .run(session.chatSessionId, session.agentId, session.sessionId, session.workspaceDir, now, now)
  }

  deleteChat(chatSessionId: string): void {
    this.sqlite.db.prepare('DELETE FROM acp_sessions WHERE chat_session_id = ?').run(chatSessionId)
  }

  deleteAgent(agentId: string): void {
    this.sqlite.db.prepare('DELETE FROM acp_sessions WHERE agent_id = ?').run(agentId)
  }
}
