import type { MCPToolDefinition, ToolContentItem } from '@shared/types/tools'

/** One tool as an MCP server declares it, before the ToolMapper names it for a session. */
export interface McpServerTool {
  serverId: string
  serverName: string
  serverIcon?: string
  serverDescription?: string
  /** The tool's name on its server. */
  name: string
  /** The name the model calls it by (`<slug>__<tool>`), stable for as long as the server's slug is. */
  exposedName: string
  description: string
  inputSchema: MCPToolDefinition['function']['parameters']
  annotations?: MCPToolDefinition['annotations']
}

export interface McpCallResult {
  content: ToolContentItem[]
  structuredContent?: unknown
  isError: boolean
}

export interface McpCallOptions {
  signal?: AbortSignal
  /** The chat the call comes from: its workspace becomes the server's roots (see RootsTracker). */
  session?: { sessionId: string; workspaceDirs: string[] }
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void
}

/**
 * What ToolPresenter needs from McpPresenter, nothing more: the enabled tools of running
 * servers (disabled tools already filtered) and a way to call one. McpPresenter implements it.
 */
export interface McpToolSource {
  listTools(): Promise<McpServerTool[]>
  /**
   * Why a tool the model knows by `exposedName` (and, if known, where it lived) cannot be
   * called now, e.g. `MCP server "GitHub" is stopped`; null when the name means nothing.
   */
  explainUnavailable?(ref: { exposedName: string; serverId?: string; toolName?: string }): string | null
  callTool(
    serverId: string,
    toolName: string,
    args: Record<string, unknown>,
    options?: McpCallOptions
  ): Promise<McpCallResult>
}
