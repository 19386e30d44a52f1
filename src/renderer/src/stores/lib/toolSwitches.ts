import type { SessionSettingsView } from '@shared/contracts/routes/sessions.routes'
import type { McpServerState, McpServerView } from '@shared/types/mcp'
import type { AgentToolInfo, OfferedTool, OfferedTools } from '@shared/types/agentTools'

/** Why the model does not get a tool or server whatever its switch says. */
export type NotOfferedReason = 'unavailable' | 'perChatOnly' | 'serverOff' | 'notRunning'

interface SwitchRow {
  /** The switch. */
  on: boolean
  /** The model gets it (the switch is on and nothing else keeps it out). */
  offered: boolean
  /** What keeps it out besides the switch, if anything. */
  blockedBy: NotOfferedReason | null
}

export interface ToolSwitchRow extends SwitchRow {
  name: string
  group: string
}

export interface ServerSwitchRow extends SwitchRow {
  id: string
  name: string
  state: McpServerState
  lastError?: string
}

function switchRow(on: boolean, blockedBy: NotOfferedReason | null): SwitchRow {
  return { on, offered: on && blockedBy === null, blockedBy }
}

/** An open chat's built-in tools: its switches, and whether the chat can have each tool at all. */
export function chatToolRows(settings: SessionSettingsView): ToolSwitchRow[] {
  return settings.tools.map((tool) => ({
    name: tool.name,
    group: tool.group,
    ...switchRow(tool.enabled, tool.available ? null : 'unavailable')
  }))
}

/** The app-wide switches new chats start with; a diagnostic tool is off in every new chat. */
export function defaultToolRows(tools: readonly AgentToolInfo[]): ToolSwitchRow[] {
  return tools.map((tool) => ({
    name: tool.name,
    group: tool.group,
    ...switchRow(tool.enabled, tool.exposure === 'diagnostic' ? 'perChatOnly' : null)
  }))
}

/**
 * MCP servers in an open chat: the chat's switch over each server's live state. The model gets
 * the tools of running servers only; a server the chat has not switched is on.
 */
export function chatServerRows(
  servers: readonly McpServerView[],
  settings: SessionSettingsView
): ServerSwitchRow[] {
  const off = new Set(settings.mcpServers.filter((s) => !s.enabled).map((s) => s.id))
  return servers.map((server) =>
    serverRow(
      server,
      !off.has(server.id),
      notRunning(server) && (server.enabled ? 'notRunning' : 'serverOff')
    )
  )
}

/** The app-wide switch is the server's own `enabled` (switching it starts or stops the server). */
export function defaultServerRows(servers: readonly McpServerView[]): ServerSwitchRow[] {
  return servers.map((server) => serverRow(server, server.enabled, notRunning(server)))
}

function notRunning(server: McpServerView): NotOfferedReason | null {
  return server.status.state === 'running' ? null : 'notRunning'
}

function serverRow(server: McpServerView, on: boolean, blockedBy: NotOfferedReason | null): ServerSwitchRow {
  return {
    id: server.id,
    name: server.name,
    state: server.status.state,
    ...(server.status.lastError ? { lastError: server.status.lastError } : {}),
    ...switchRow(on, blockedBy)
  }
}

/**
 * Marks as offered exactly the built-in tools of the back end's list for the next request (the
 * switch rows stay, so switched-off tools can be switched back on).
 */
export function offeredToolRows(rows: readonly ToolSwitchRow[], offered: OfferedTools): ToolSwitchRow[] {
  const names = new Set(offered.tools.map((t) => t.name))
  return rows.map((row) => ({ ...row, offered: names.has(row.name) }))
}

/**
 * Each server with the tools of it the next request carries. While the catalog waits behind
 * `tool_search` none is carried; a running server then still offers its tools through the search.
 */
export function offeredServerRows(
  rows: readonly ServerSwitchRow[],
  offered: OfferedTools
): Array<ServerSwitchRow & { tools: OfferedTool[] }> {
  return rows.map((row) => {
    const tools = offered.tools.filter((t) => t.source === 'mcp' && t.serverId === row.id)
    return { ...row, tools, offered: tools.length > 0 || (offered.deferred !== null && row.offered) }
  })
}
