import { normalizePermissionMode, type PermissionRequest } from '@shared/types/permission'
import type { MCPToolCall } from '@shared/types/tools'
import { offeredRequest, type GateResult, type PermissionGate } from '../permission'
import { mcpCallRequest, mcpToolRisk } from '../permission/mcpRequests'
import type { AgentToolManager } from './agentTools/agentToolManager'
import { applyAliases, type AgentTool, type ToolContext } from './agentTools/defineTool'
import { describeZodError, parseToolArguments } from './argumentParsing'
import { errorResult, type ToolCallResult, type ToolSessionContext } from './callResult'
import type { AgentToolRuntimePort } from './runtimePorts'
import type { ToolRoute } from './toolMapper'

/** A call ready to be judged: its arguments checked and the permission it needs, or why it cannot run. */
export type Prepared =
  | { kind: 'error'; result: ToolCallResult }
  | {
      kind: 'agent'
      tool: AgentTool
      args: unknown
      need: PermissionRequest | null
      route: ToolRoute
      toolCtx: ToolContext
    }
  | { kind: 'mcp'; args: Record<string, unknown>; need: PermissionRequest; route: ToolRoute }

export interface PreparationParts {
  agentTools: AgentToolManager
  runtime: AgentToolRuntimePort
  /** The context a built-in tool runs with (whether the OS sandbox is there, asked once per call). */
  toolContext: (call: MCPToolCall, ctx: ToolSessionContext) => Promise<ToolContext>
  log?: (message: string) => void
}

/**
 * Prepares a routed call: arguments parsed and validated, and the permission it needs built (an
 * MCP call's from its server's hints, a built-in tool's by the tool itself). A built-in tool the
 * session may not have, a refused path or a read-only tool asking to write never gets that far.
 */
export async function prepareCall(
  call: MCPToolCall,
  route: ToolRoute,
  ctx: ToolSessionContext,
  parts: PreparationParts
): Promise<Prepared> {
  const parsed = parseToolArguments(call.arguments)
  if (!parsed.ok) {
    const message = `Invalid arguments for ${call.name}: ${parsed.message}`
    return { kind: 'error', result: errorResult(call, route, 'invalid_arguments', message) }
  }
  if (route.source === 'mcp') {
    const need = mcpCallRequest({
      tool: call.name,
      server: route.serverId,
      originalTool: route.originalName,
      sessionId: ctx.sessionId,
      risk: mcpToolRisk(route)
    })
    return { kind: 'mcp', args: parsed.value, need, route }
  }
  const { agentTools } = parts
  const tool = agentTools.get(route.originalName)
  if (
    !tool ||
    ctx.disabledAgentTools?.includes(tool.name) ||
    !agentTools.offered(tool, { sessionId: ctx.sessionId, runtime: parts.runtime })
  ) {
    const message = `Tool ${call.name} is not available in this session.`
    return { kind: 'error', result: errorResult(call, route, 'unknown_tool', message) }
  }
  const validated = tool.input.safeParse(applyAliases(parsed.value, tool.aliases))
  if (!validated.success) {
    const message = `Invalid arguments for ${call.name}: ${describeZodError(validated.error)}`
    return { kind: 'error', result: errorResult(call, route, 'invalid_arguments', message) }
  }
  const toolCtx = await parts.toolContext(call, ctx)
  // Some calls no mode, grant or rule may allow (the app's secrets file): refused, never asked.
  const refused = tool.refuse?.(validated.data, toolCtx)
  if (refused) return { kind: 'error', result: errorResult(call, route, refused.code, refused.message) }
  const need = offeredRequest(tool.checkPermission(validated.data, toolCtx))
  // A read-only tool may ask to read, nothing more: a request beyond its facts is refused, never offered.
  if (need && tool.readOnly && need.type !== 'read') {
    parts.log?.(`tool ${tool.name} is read-only but asked for ${need.type}`)
    const message = `${call.name} is a read-only tool and cannot ask for ${need.type} access.`
    return { kind: 'error', result: errorResult(call, route, 'not_read_only', message) }
  }
  return { kind: 'agent', tool, args: validated.data, need, route, toolCtx }
}

/** The gate's verdict on a prepared call; an MCP server's own `autoApproveTools` turns an ask into allow. */
export function judgeCall(
  prepared: Exclude<Prepared, { kind: 'error' }>,
  ctx: ToolSessionContext,
  permissions: Pick<PermissionGate, 'evaluate'>,
  mcpAutoApprove?: (serverId: string, toolName: string) => boolean
): GateResult {
  const verdict = permissions.evaluate(prepared.need, normalizePermissionMode(ctx.permissionMode))
  if (
    verdict.status === 'ask' &&
    prepared.kind === 'mcp' &&
    mcpAutoApprove?.(prepared.route.serverId, prepared.route.originalName)
  ) {
    return { status: 'allow', via: 'server autoApproveTools' }
  }
  return verdict
}
