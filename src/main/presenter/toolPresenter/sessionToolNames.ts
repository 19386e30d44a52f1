import type { McpToolSource } from './mcpToolSource'
import type { ToolMapper, ToolRoute } from './toolMapper'

/** Where a called name leads in its session, or why it leads nowhere (the error result's code and text). */
export type NameLookup =
  { ok: true; route: ToolRoute } | { ok: false; route: ToolRoute | null; code: string; message: string }

/**
 * Each session's tool names: the mapping of the list it was last offered, every MCP name it was
 * ever offered (a server's slug renamed: same tool, new name), and the MCP tools left out
 * because their server is off there.
 */
export class SessionToolNames {
  private readonly mappers = new Map<string, ToolMapper>()
  /** Per session: tool name -> server name of MCP tools left out because the server is off there. */
  private readonly hiddenMcpTools = new Map<string, Map<string, string>>()
  /** Per session: every MCP name it was ever offered, so a call to an old name resolves or says why not. */
  private readonly knownMcpRoutes = new Map<string, Map<string, ToolRoute>>()

  constructor(
    private readonly deps: {
      mcp: Pick<McpToolSource, 'explainUnavailable'>
      /** MCP servers the user switched off for one session. */
      disabledMcpServers?: (sessionId: string) => readonly string[]
    }
  ) {}

  has(sessionId: string): boolean {
    return this.mappers.has(sessionId)
  }

  /** The session's new list: its mapping, and the MCP tools its switched-off servers hide. */
  offered(sessionId: string, mapper: ToolMapper, hidden: Map<string, string>): void {
    this.mappers.set(sessionId, mapper)
    this.hiddenMcpTools.set(sessionId, hidden)
    const known = this.knownMcpRoutes.get(sessionId) ?? new Map<string, ToolRoute>()
    for (const [name, route] of mapper.entries()) if (route.source === 'mcp') known.set(name, route)
    this.knownMcpRoutes.set(sessionId, known)
  }

  lookup(name: string, sessionId: string): NameLookup {
    const mapper = this.mappers.get(sessionId)
    let route = mapper?.resolve(name)
    const offServer = this.switchedOffServerOf(name, route, sessionId)
    if (offServer) {
      const message = `Tool ${name} belongs to the MCP server ${offServer}, which the user switched off for this chat. Do not call it.`
      return { ok: false, route: route ?? null, code: 'mcp_server_disabled', message }
    }
    const stale = route ? null : this.resolveStale(name, mapper, sessionId)
    if (stale && 'route' in stale) route = stale.route
    else if (stale) {
      const message = `Tool ${name} is no longer available: ${stale.unavailable}. Do not call it again unless it is offered.`
      return { ok: false, route: null, code: 'tool_unavailable', message }
    }
    if (!route) {
      const message = `Unknown tool: ${name}. Call only the tools you were given.`
      return { ok: false, route: null, code: 'unknown_tool', message }
    }
    return { ok: true, route }
  }

  clear(sessionId: string): void {
    this.mappers.delete(sessionId)
    this.hiddenMcpTools.delete(sessionId)
    this.knownMcpRoutes.delete(sessionId)
  }

  /**
   * A name that is not in the session's current list: an MCP tool it was offered before (the
   * server's slug was renamed: same tool, new name) still resolves; otherwise the model is told
   * the tool is no longer available and why (the server is off, stopped, failed, or dropped it).
   */
  private resolveStale(
    name: string,
    mapper: ToolMapper | undefined,
    sessionId: string
  ): { route: ToolRoute } | { unavailable: string } | null {
    const known = this.knownMcpRoutes.get(sessionId)?.get(name)
    if (known) {
      const current = mapper?.nameOf(known.serverId, known.originalName)
      const route = current ? mapper?.resolve(current) : undefined
      if (route) return { route }
    }
    const reason = this.deps.mcp.explainUnavailable?.({
      exposedName: name,
      serverId: known?.serverId,
      toolName: known?.originalName
    })
    return reason ? { unavailable: reason } : null
  }

  /** The server of a call whose MCP server is off in this session (switched off before or during the turn). */
  private switchedOffServerOf(
    name: string,
    route: ToolRoute | undefined,
    sessionId: string
  ): string | undefined {
    if (!route) return this.hiddenMcpTools.get(sessionId)?.get(name)
    return route.source === 'mcp' && this.deps.disabledMcpServers?.(sessionId).includes(route.serverId)
      ? route.serverId
      : undefined
  }
}
