import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { AppError, isAppError } from '@shared/errors'

/** Turns whatever a tool call threw into an AppError whose code says what happened. */
export function toCallError(
  error: unknown,
  context: {
    serverId: string
    serverName: string
    toolName: string
    timeoutMs: number
    signal?: AbortSignal
    serverError?: string
  }
): AppError {
  const where = `"${context.toolName}" on MCP server "${context.serverName}"`
  const details = { serverId: context.serverId, toolName: context.toolName }
  if (isAppError(error)) return error
  if (context.signal?.aborted) return new AppError('mcp_cancelled', `Call to ${where} was cancelled`, details)
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) {
      return new AppError(
        'mcp_timeout',
        `${where} did not answer within ${Math.round(context.timeoutMs / 1000)} s`,
        details
      )
    }
    if (error.code === ErrorCode.ConnectionClosed) {
      const why = context.serverError ? `: ${context.serverError}` : ''
      return new AppError(
        'mcp_connection_lost',
        `MCP server "${context.serverName}" went away during ${`"${context.toolName}"`}${why}`,
        details
      )
    }
    return new AppError('mcp_call_failed', `${where} failed: ${error.message}`, {
      ...details,
      mcpCode: error.code
    })
  }
  const message = error instanceof Error ? error.message : String(error)
  return new AppError('mcp_call_failed', `${where} failed: ${message}`, details)
}
