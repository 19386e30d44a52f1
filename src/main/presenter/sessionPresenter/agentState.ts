import { z } from 'zod'
import type { SqlitePresenter } from '../sqlitePresenter'
import type { SessionToolState } from '../toolPresenter/runtimePorts'

const Names = z.array(z.string()).catch([])

interface StateRow {
  disabled_tools_json: string
  enabled_tools_json: string
  active_skills_json: string
}

/**
 * Per-session agent state the tools and the user change: switched-off tools, switched-on
 * diagnostic tools, active skills and switched-off MCP servers. One row per session, removed with it.
 */
export class SessionAgentStateStore {
  constructor(
    private readonly sqlite: Pick<SqlitePresenter, 'db'>,
    private readonly now: () => number = Date.now,
    /** Tools switched off for a session that has not changed its own set (Settings > Agent tools). */
    private readonly defaultDisabledTools: () => string[] = () => []
  ) {}

  get(sessionId: string): SessionToolState {
    const row = this.sqlite.db
      .prepare(
        'SELECT disabled_tools_json, enabled_tools_json, active_skills_json FROM session_agent_state WHERE session_id = ?'
      )
      .get(sessionId) as StateRow | undefined
    if (!row) return { disabledTools: [...this.defaultDisabledTools()], enabledTools: [], activeSkills: [] }
    return {
      disabledTools: Names.parse(parseJson(row.disabled_tools_json)),
      enabledTools: Names.parse(parseJson(row.enabled_tools_json)),
      activeSkills: Names.parse(parseJson(row.active_skills_json))
    }
  }

  update(sessionId: string, patch: Partial<SessionToolState>): SessionToolState {
    const next = { ...this.get(sessionId), ...patch }
    this.sqlite.db
      .prepare(
        `INSERT INTO session_agent_state (session_id, disabled_tools_json, enabled_tools_json, active_skills_json, updated_at)
         VALUES (@id, @disabled, @enabled, @skills, @at)
         ON CONFLICT(session_id) DO UPDATE SET disabled_tools_json = @disabled, enabled_tools_json = @enabled,
           active_skills_json = @skills, updated_at = @at`
      )
      .run({
        id: sessionId,
        disabled: JSON.stringify(unique(next.disabledTools)),
        enabled: JSON.stringify(unique(next.enabledTools)),
        skills: JSON.stringify(unique(next.activeSkills)),
        at: this.now()
      })
    return this.get(sessionId)
  }

  /** MCP servers switched off for this session (their tools are not offered to its model). */
  disabledMcpServers(sessionId: string): string[] {
    const row = this.sqlite.db
      .prepare('SELECT disabled_mcp_servers_json FROM session_agent_state WHERE session_id = ?')
      .get(sessionId) as { disabled_mcp_servers_json: string } | undefined
    return row ? Names.parse(parseJson(row.disabled_mcp_servers_json)) : []
  }

  setDisabledMcpServers(sessionId: string, serverIds: string[]): string[] {
    // A first row keeps the session's current tool state (the app-wide defaults included).
    this.update(sessionId, {})
    this.sqlite.db
      .prepare(
        'UPDATE session_agent_state SET disabled_mcp_servers_json = ?, updated_at = ? WHERE session_id = ?'
      )
      .run(JSON.stringify(unique(serverIds)), this.now(), sessionId)
    return this.disabledMcpServers(sessionId)
  }
}

function unique(names: string[]): string[] {
  return [...new Set(names)]
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
