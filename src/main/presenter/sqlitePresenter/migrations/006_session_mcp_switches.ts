import type { Migration } from './types'

/**
 * MCP servers a session switched off (the chat's tools popover). Per session, beside its
 * built-in tool switches; the app-wide `enabled` flag of a server stays in its config.
 */
export const sessionMcpSwitchesMigration: Migration = {
  version: 6,
  name: 'session_mcp_switches',
  up(db) {
    db.exec(
      `ALTER TABLE session_agent_state ADD COLUMN disabled_mcp_servers_json TEXT NOT NULL DEFAULT '[]';`
    )
  }
}
