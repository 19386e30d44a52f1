import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitResult
} from '@modelcontextprotocol/sdk/types.js'

export interface McpRoot {
  uri: string
  name?: string
}

/** Who is asking: handlers show this to the user, never trust it for anything else. */
export interface McpRequester {
  serverId: string
  serverName: string
}

/**
 * How a connected client answers server-initiated requests. The protocol side lives in
 * McpClient; what the user sees (a form, an approval dialog) is behind these three calls.
 */
export interface McpClientHandlers {
  elicit(
    request: McpRequester & { message: string; requestedSchema: Record<string, unknown> },
    signal: AbortSignal
  ): Promise<ElicitResult>
  sample(
    request: McpRequester & { params: CreateMessageRequest['params'] },
    signal: AbortSignal
  ): Promise<CreateMessageResult>
  listRoots(serverId: string): Promise<McpRoot[]>
}
