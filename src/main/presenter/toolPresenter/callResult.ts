import type { PermissionMode } from '@shared/types/permission'
import type {
  MCPToolCall,
  ToolContentItem,
  ToolEffects,
  ToolResultEnvelope,
  ToolSource
} from '@shared/types/tools'
import type { QuestionRequest } from '@shared/contracts/events/tools.events'
import { ToolError, type AgentTool, type AgentToolResult, type ToolContext } from './agentTools/defineTool'
import { guardOutput } from './outputGuard'
import type { ToolRoute } from './toolMapper'
import type { ChatTurns } from './runtimePorts'

/** What the loop tells ToolPresenter about the session a call belongs to. */
export interface ToolSessionContext {
  sessionId: string
  workspaceDir: string
  /** Anything else (or nothing) means `default`. */
  permissionMode?: PermissionMode | string | null
  signal?: AbortSignal
  disabledAgentTools?: string[]
  /** Only these MCP servers' tools; undefined means every running server. */
  enabledMcpServerIds?: string[]
  /** Progress notifications of a running MCP call (shown on the call's block). */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void
  /** The chat loop running this call (absent outside a turn): subagent runs start turns on it. */
  turns?: ChatTurns
}

export interface ToolCallResult {
  content: ToolContentItem[]
  rawData: {
    toolCallId: string
    name: string
    source: ToolSource | null
    serverId: string | null
    isError: boolean
    toolResult: ToolResultEnvelope
    /** Side effects of a successful built-in call (MCP results have none). */
    effects?: ToolEffects
    interaction?: { kind: 'question'; question: QuestionRequest }
    spilled?: { path: string; totalChars: number }
  }
}

export type PreCheckResult =
  { status: 'allowed' } | { status: 'denied'; reason: string } | { status: 'invalid'; message: string }

/** A call that never ran, as the error result the model reads. */
export function errorResult(
  call: MCPToolCall,
  route: ToolRoute | null,
  code: string,
  message: string
): ToolCallResult {
  return {
    content: [{ type: 'text', text: `Error: ${message}` }],
    rawData: {
      toolCallId: call.id,
      name: call.name,
      source: route?.source ?? null,
      serverId: route?.serverId ?? null,
      isError: true,
      toolResult: { ok: false, summary: message, error: { code, message } }
    }
  }
}

function toContent(content: string | ToolContentItem[]): ToolContentItem[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content
}

/**
 * A call's outcome as the model and the chat read it: output too big for the context is spilled
 * to a file in the session's folder (outputGuard.ts), the rest goes in one envelope.
 */
export async function finishedCall(
  call: MCPToolCall,
  route: ToolRoute,
  result: AgentToolResult,
  effects: ToolEffects | undefined,
  sessionDataDir: string
): Promise<ToolCallResult> {
  const guarded = await guardOutput(toContent(result.content), {
    sessionDataDir,
    toolCallId: call.id,
    toolName: call.name
  })
  const envelope: ToolResultEnvelope = {
    ok: result.ok,
    summary: result.summary,
    data: result.data,
    error: result.error
  }
  return {
    content: guarded.content,
    rawData: {
      toolCallId: call.id,
      name: call.name,
      source: route.source,
      serverId: route.serverId,
      isError: !result.ok,
      toolResult: envelope,
      interaction: result.interaction,
      ...(effects ? { effects } : {}),
      spilled: guarded.spilled
    }
  }
}

/** Runs a built-in tool; a throw becomes a failed result (a ToolError keeps its code, anything else is logged). */
export async function runAgentTool(
  tool: AgentTool,
  args: unknown,
  toolCtx: ToolContext,
  log?: (message: string) => void
): Promise<AgentToolResult> {
  try {
    return await tool.execute(args, toolCtx)
  } catch (error) {
    const code = error instanceof ToolError ? error.code : 'tool_failed'
    const message = error instanceof Error ? error.message : String(error)
    if (!(error instanceof ToolError)) log?.(`tool ${tool.name} failed: ${message}`)
    return { ok: false, summary: message, content: `Error: ${message}`, error: { code, message } }
  }
}
