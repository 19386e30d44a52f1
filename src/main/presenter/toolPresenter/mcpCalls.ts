import type { MCPToolDefinition, ToolFacts } from '@shared/types/tools'
import type { AgentToolResult } from './agentTools/defineTool'
import type { ToolSessionContext } from './callResult'
import type { McpServerTool, McpToolSource } from './mcpToolSource'
import type { ToolRoute } from './toolMapper'

/** Runs an MCP tool; its answer, an error it reports or a failed call all become a tool result. */
export async function runMcpTool(
  mcp: Pick<McpToolSource, 'callTool'>,
  route: ToolRoute,
  args: Record<string, unknown>,
  ctx: ToolSessionContext
): Promise<AgentToolResult> {
  try {
    const result = await mcp.callTool(route.serverId, route.originalName, args, {
      signal: ctx.signal,
      onProgress: ctx.onProgress,
      session: { sessionId: ctx.sessionId, workspaceDirs: [ctx.workspaceDir] }
    })
    const text = result.content
      .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
      .map((c) => c.text)
      .join('\n')
    const content = result.content.length
      ? result.content
      : [{ type: 'text' as const, text: `${route.originalName} returned no content.` }]
    const summary = summarize(text) || `${route.originalName} completed without textual output.`
    return result.isError
      ? {
          ok: false,
          summary,
          content,
          data: result.structuredContent,
          error: { code: 'mcp_tool_error', message: summary }
        }
      : { ok: true, summary, content, data: result.structuredContent ?? { content: text } }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return {
      ok: false,
      summary: message,
      content: `Error: ${message}`,
      error: { code: 'mcp_call_failed', message }
    }
  }
}

/** An MCP tool as the model is offered it, under the name its session's mapper gave it. */
export function mcpToolDefinition(tool: McpServerTool, name: string): MCPToolDefinition {
  return {
    type: 'function',
    source: 'mcp',
    function: { name, description: tool.description, parameters: tool.inputSchema },
    server: {
      id: tool.serverId,
      name: tool.serverName,
      icon: tool.serverIcon,
      description: tool.serverDescription
    },
    facts: mcpToolFacts(tool.annotations),
    annotations: tool.annotations
  }
}

/** An MCP tool that says it only reads may run in parallel with other such calls. */
function mcpToolFacts(annotations: MCPToolDefinition['annotations']): ToolFacts {
  const readOnly = annotations?.readOnlyHint === true
  return { readOnly, parallelSafe: readOnly }
}

function summarize(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 240 ? `${flat.slice(0, 237)}...` : flat
}
