import type { MCPToolDefinition, ToolContentItem } from '@shared/types/tools'

/** One tool as an MCP server declares it, before the ToolMapper names it for a session. */
export interface McpServerTool {
  serverId: string
  serverName: string
  serverIcon?: string
  serverDescription?: string
  /** The tool's name on its server. */
  name: string
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
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void
}

/**
 * What ToolPresenter needs from McpPresenter, nothing more: the enabled tools of running
 * servers (disabled tools already filtered) and a way to call one. McpPresenter implements it.
 */
export interface McpToolSource {
  listTools(): Promise<McpServerTool[]>
  callTool(
    serverId: string,
    toolName: string,
    args: Record<string, unknown>,
    options?: McpCallOptions
  ): Promise<McpCallResult>
}
