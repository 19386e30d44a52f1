import { join } from 'node:path'
import { AppError } from '@shared/errors'
import {
  normalizePermissionMode,
  type PermissionMode,
  type PermissionRequest,
  type RiskLevel
} from '@shared/types/permission'
import type {
  MCPToolCall,
  MCPToolDefinition,
  ToolContentItem,
  ToolEffects,
  ToolFacts,
  ToolResultEnvelope,
  ToolSource
} from '@shared/types/tools'
import type { QuestionRequest } from '@shared/contracts/events/tools.events'
import { offeredRequest, permissionErrorFor, type GateResult, type PermissionGate } from '../permission'
import { FilePermissionService } from '../permission/filePermissionService'
import { CommandPermissionService } from '../permission/commandPermissionService'
import { reasonOf } from '../permission/reasonText'
import type { McpServerTool, McpToolSource } from './mcpToolSource'
import type { AgentToolRuntimePort } from './runtimePorts'
import { ToolMapper, type ToolRoute } from './toolMapper'
import { AgentToolManager, type AgentToolManagerOptions } from './agentTools/agentToolManager'
import {
  ToolError,
  applyAliases,
  type AgentTool,
  type AgentToolResult,
  type ToolContext
} from './agentTools/defineTool'
import { ShellCaptures } from './agentTools/shellChanges'
import { BackgroundProcessManager } from './agentTools/processManager'
import { describeZodError, parseToolArguments } from './argumentParsing'
import { guardOutput, safeName } from './outputGuard'
import { DEFAULT_TOOL_SEARCH_LIMITS, DeferredTools, type ToolSearchLimits } from './deferredTools'

const TOOL_SEARCH = 'tool_search'
import { buildToolSystemPrompt } from './systemPrompt'
import { offeredTool } from './offeredTools'

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

export interface ToolPresenterDeps {
  mcp: McpToolSource
  permissions: PermissionGate
  runtime: AgentToolRuntimePort
  /** Parent of every session's data folder (`<userData>/sessions`). */
  sessionDataRoot: string
  processes?: BackgroundProcessManager
  /** What shell commands change, for checkpoints (default: one for this presenter). */
  shellCaptures?: ShellCaptures
  files?: FilePermissionService
  commands?: CommandPermissionService
  /** The OS sandbox's status: whether unasked commands are contained (and `sandboxed` mode works). */
  sandbox?: { status(): Promise<{ available: boolean }> }
  agentTools?: AgentToolManagerOptions
  /** The MCP server's own `autoApproveTools` setting: such tools run without asking (deny rules still win). */
  mcpAutoApprove?: (serverId: string, toolName: string) => boolean
  /** MCP servers the user switched off for one session: their tools are neither offered nor run there. */
  disabledMcpServers?: (sessionId: string) => readonly string[]
  log?: (message: string) => void
  /** When MCP tools are deferred behind `tool_search` (default: over 100 tools or ~30k tokens). */
  toolSearchLimits?: () => Partial<ToolSearchLimits>
  /** A session's MCP tools were deferred behind `tool_search` (emit `mcp.tools.deferred`). */
  onToolsDeferred?: (info: { sessionId: string; total: number; limit: number }) => void
}

type Prepared =
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

/**
 * The one flat tool list the model sees: MCP tools first, then built-ins, named per session by a
 * ToolMapper. Calls are routed by that session's mapping only, arguments are parsed and
 * validated, permissions go through the gate, and every result becomes a uniform envelope.
 */
export class ToolPresenter {
  readonly agentTools: AgentToolManager
  readonly processes: BackgroundProcessManager
  private readonly shellCaptures: ShellCaptures
  private readonly mappers = new Map<string, ToolMapper>()
  /** Sessions whose tool list a tool just changed (skill activated, tools switched). */
  private readonly toolsChanged = new Set<string>()
  /** Per session: tool name -> server name of MCP tools left out because the server is off there. */
  private readonly hiddenMcpTools = new Map<string, Map<string, string>>()
  /** Per session: every MCP name it was ever offered, so a call to an old name resolves or says why not. */
  private readonly knownMcpRoutes = new Map<string, Map<string, ToolRoute>>()
  private readonly files: FilePermissionService
  private readonly commands: CommandPermissionService
  private readonly deferredTools: DeferredTools

  constructor(private readonly deps: ToolPresenterDeps) {
    this.agentTools = new AgentToolManager(deps.agentTools)
    this.processes = deps.processes ?? new BackgroundProcessManager()
    this.shellCaptures = deps.shellCaptures ?? new ShellCaptures()
    this.files = deps.files ?? new FilePermissionService()
    this.commands = deps.commands ?? new CommandPermissionService()
    this.deferredTools = new DeferredTools(
      () => ({ ...DEFAULT_TOOL_SEARCH_LIMITS, ...deps.toolSearchLimits?.() }),
      deps.onToolsDeferred
    )
  }

  async getAllToolDefinitions(ctx: ToolSessionContext): Promise<MCPToolDefinition[]> {
    // Every built-in's name is taken, offered here or not: an MCP tool never shadows one.
    const mapper = new ToolMapper(this.agentTools.names)
    const agentDefinitions = this.agentTools.definitionsFor(ctx.disabledAgentTools, {
      sessionId: ctx.sessionId,
      runtime: this.deps.runtime
    })
    let mcpTools: McpServerTool[] = []
    try {
      mcpTools = await this.deps.mcp.listTools()
    } catch (error) {
      this.deps.log?.(`MCP tools unavailable: ${error instanceof Error ? error.message : String(error)}`)
    }
    const enabled = ctx.enabledMcpServerIds ? new Set(ctx.enabledMcpServerIds) : null
    const switchedOff = new Set(this.deps.disabledMcpServers?.(ctx.sessionId) ?? [])
    const hidden = new Map<string, string>()
    const definitions: MCPToolDefinition[] = []
    for (const tool of mcpTools) {
      if (switchedOff.has(tool.serverId)) hidden.set(tool.exposedName, tool.serverName)
      if (switchedOff.has(tool.serverId) || (enabled && !enabled.has(tool.serverId))) continue
      const name = mapper.registerMcpTool(tool, {
        readOnlyHint: tool.annotations?.readOnlyHint,
        destructiveHint: tool.annotations?.destructiveHint
      })
      definitions.push({
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
      })
    }
    // A catalog too big to send is deferred: found tools are offered, the rest via tool_search.
    const { offered, deferred } = this.deferredTools.offer(ctx.sessionId, definitions)
    definitions.splice(0, definitions.length, ...offered)
    for (const definition of agentDefinitions) {
      mapper.registerAgentTool(definition.function.name, definition.server.id)
      if (definition.function.name === TOOL_SEARCH && !deferred) continue
      definitions.push(definition)
    }
    this.mappers.set(ctx.sessionId, mapper)
    this.hiddenMcpTools.set(ctx.sessionId, hidden)
    this.rememberMcpRoutes(ctx.sessionId, mapper)
    return definitions
  }

  /**
   * The tools the session's next provider request carries: the very list the chat loop builds
   * (same function, same context), with friendly names, and whether MCP tools wait behind
   * `tool_search`.
   */
  async offeredTools(ctx: Pick<ToolSessionContext, 'sessionId' | 'workspaceDir' | 'permissionMode'>) {
    const definitions = await this.getAllToolDefinitions(ctx)
    const total = this.deferredTools.port(ctx.sessionId)?.total()
    return {
      tools: definitions.map((d) =>
        offeredTool(d, d.source === 'agent' ? this.agentTools.get(d.function.name)?.labelKey : undefined)
      ),
      deferred: total === undefined ? null : { total }
    }
  }

  private rememberMcpRoutes(sessionId: string, mapper: ToolMapper): void {
    const known = this.knownMcpRoutes.get(sessionId) ?? new Map<string, ToolRoute>()
    for (const [name, route] of mapper.entries()) if (route.source === 'mcp') known.set(name, route)
    this.knownMcpRoutes.set(sessionId, known)
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

  buildToolSystemPrompt(definitions: MCPToolDefinition[]): string {
    return buildToolSystemPrompt(definitions)
  }

  /**
   * Whether a call may run now. Throws the typed PermissionRequiredError when the user must
   * decide; consumes nothing (a once-grant is spent only when the call really runs).
   */
  async preCheckToolPermission(call: MCPToolCall, ctx: ToolSessionContext): Promise<PreCheckResult> {
    const prepared = await this.prepare(call, ctx)
    if (prepared.kind === 'error')
      return {
        status: 'invalid',
        message: prepared.result.rawData.toolResult.error?.message ?? 'invalid call'
      }
    const verdict = this.verdict(prepared, ctx)
    if (verdict.status === 'deny') return { status: 'denied', reason: verdict.reason }
    if (verdict.status === 'ask') throw permissionErrorFor(prepared.need as PermissionRequest)
    return { status: 'allowed' }
  }

  /**
   * Runs a call. Tool failures come back as error results the model can read; only a needed
   * approval is thrown (as a *PermissionRequiredError carrying the request).
   */
  async callTool(call: MCPToolCall, ctx: ToolSessionContext): Promise<ToolCallResult> {
    const prepared = await this.prepare(call, ctx)
    if (prepared.kind === 'error') return prepared.result
    const verdict = this.verdict(prepared, ctx)
    if (verdict.status === 'deny')
      return errorResult(call, prepared.route, 'permission_denied', verdict.reason)
    if (verdict.status === 'ask') throw permissionErrorFor(prepared.need as PermissionRequest)
    if (ctx.signal?.aborted)
      return errorResult(call, prepared.route, 'aborted', `${call.name} was cancelled before it ran`)
    if (verdict.onceGrant) this.deps.permissions.consume(ctx.sessionId, verdict.onceGrant)

    const result =
      prepared.kind === 'agent'
        ? // The tool re-checks its paths against what the gate allowed, when it runs.
          await this.runAgentTool(prepared.tool, prepared.args, {
            ...prepared.toolCtx,
            approved: prepared.need
          })
        : await this.runMcpTool(prepared.route, prepared.args, ctx)
    const effects = prepared.kind === 'agent' && result.ok ? result.effects : undefined
    if (effects?.toolsChanged) this.toolsChanged.add(ctx.sessionId)
    const guarded = await guardOutput(toContent(result.content), {
      sessionDataDir: this.sessionDataDir(ctx.sessionId),
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
        source: prepared.route.source,
        serverId: prepared.route.serverId,
        isError: !result.ok,
        toolResult: envelope,
        interaction: result.interaction,
        ...(effects ? { effects } : {}),
        spilled: guarded.spilled
      }
    }
  }

  /** Whether a tool changed the session's tool list since the last ask (the loop then refreshes it). */
  takeToolsChanged(sessionId: string): boolean {
    return this.toolsChanged.delete(sessionId)
  }

  /** Whether a session could have the built-in tool `name`, its switches aside (the tools popover shows it). */
  agentToolAvailable(sessionId: string, name: string): boolean {
    const tool = this.agentTools.get(name)
    // tool_search is there only while the chat's MCP catalog is too big to send whole.
    if (name === TOOL_SEARCH) return this.deferredTools.isDeferred(sessionId)
    return !!tool && this.agentTools.available(tool, { sessionId, runtime: this.deps.runtime })
  }

  /** The user switched a session's tools: a running turn offers the new list from its next request. */
  markToolsChanged(sessionId: string): void {
    this.toolsChanged.add(sessionId)
  }

  /**
   * Runs a runtime-only tool (never offered to the model), e.g. `tape_handoff` from a command
   * or compaction. Bad arguments are an AppError; tool failures come back as a failed result.
   */
  async runRuntimeTool(name: string, args: unknown, ctx: ToolSessionContext): Promise<AgentToolResult> {
    const tool = this.agentTools.get(name)
    if (!tool || tool.exposure !== 'runtime')
      throw new AppError('not_found', `There is no runtime tool ${name}`)
    const parsed = tool.input.safeParse(args)
    if (!parsed.success)
      throw new AppError('invalid_input', `Invalid arguments for ${name}: ${describeZodError(parsed.error)}`)
    const call: MCPToolCall = {
      id: `runtime_${Date.now().toString(36)}`,
      name,
      arguments: JSON.stringify(args)
    }
    return this.runAgentTool(tool, parsed.data, this.toolContext(call, ctx))
  }

  /** Forgets a session's tool names and plan state (session closed or deleted). */
  clearSessionToolMapping(sessionId: string): void {
    this.mappers.delete(sessionId)
    this.hiddenMcpTools.delete(sessionId)
    this.knownMcpRoutes.delete(sessionId)
    this.deferredTools.clear(sessionId)
    this.agentTools.clearSession(sessionId)
  }

  /** Session purge: tool mapping gone and every process it started killed. */
  async purgeSession(sessionId: string): Promise<void> {
    this.clearSessionToolMapping(sessionId)
    await this.processes.killSessionProcesses(sessionId)
  }

  killSessionProcesses(sessionId: string): Promise<void> {
    return this.processes.killSessionProcesses(sessionId)
  }

  async dispose(): Promise<void> {
    this.shellCaptures.dispose()
    await this.processes.killAll()
  }

  sessionDataDir(sessionId: string): string {
    return join(this.deps.sessionDataRoot, safeName(sessionId))
  }

  private async prepare(call: MCPToolCall, ctx: ToolSessionContext): Promise<Prepared> {
    if (!this.mappers.has(ctx.sessionId)) await this.getAllToolDefinitions(ctx)
    const mapper = this.mappers.get(ctx.sessionId)
    let route = mapper?.resolve(call.name)
    const offServer = this.switchedOffServerOf(call.name, route, ctx.sessionId)
    if (offServer) {
      const message = `Tool ${call.name} belongs to the MCP server ${offServer}, which the user switched off for this chat. Do not call it.`
      return { kind: 'error', result: errorResult(call, route ?? null, 'mcp_server_disabled', message) }
    }
    const stale = route ? null : this.resolveStale(call.name, mapper, ctx.sessionId)
    if (stale && 'route' in stale) route = stale.route
    else if (stale) {
      const message = `Tool ${call.name} is no longer available: ${stale.unavailable}. Do not call it again unless it is offered.`
      return { kind: 'error', result: errorResult(call, null, 'tool_unavailable', message) }
    }
    if (!route) {
      return {
        kind: 'error',
        result: errorResult(
          call,
          null,
          'unknown_tool',
          `Unknown tool: ${call.name}. Call only the tools you were given.`
        )
      }
    }
    const parsed = parseToolArguments(call.arguments)
    if (!parsed.ok)
      return {
        kind: 'error',
        result: errorResult(
          call,
          route,
          'invalid_arguments',
          `Invalid arguments for ${call.name}: ${parsed.message}`
        )
      }
    if (route.source === 'mcp')
      return {
        kind: 'mcp',
        args: parsed.value,
        need: mcpNeed(call, route, ctx, this.annotationRisk(route)),
        route
      }

    const tool = this.agentTools.get(route.originalName)
    if (
      !tool ||
      ctx.disabledAgentTools?.includes(tool.name) ||
      !this.agentTools.offered(tool, { sessionId: ctx.sessionId, runtime: this.deps.runtime })
    ) {
      return {
        kind: 'error',
        result: errorResult(
          call,
          route,
          'unknown_tool',
          `Tool ${call.name} is not available in this session.`
        )
      }
    }
    const validated = tool.input.safeParse(applyAliases(parsed.value, tool.aliases))
    if (!validated.success) {
      return {
        kind: 'error',
        result: errorResult(
          call,
          route,
          'invalid_arguments',
          `Invalid arguments for ${call.name}: ${describeZodError(validated.error)}`
        )
      }
    }
    const toolCtx = this.toolContext(call, ctx, (await this.deps.sandbox?.status())?.available ?? false)
    // Some calls no mode, grant or rule may allow (the app's secrets file): refused, never asked.
    const refused = tool.refuse?.(validated.data, toolCtx)
    if (refused) return { kind: 'error', result: errorResult(call, route, refused.code, refused.message) }
    const need = offeredRequest(tool.checkPermission(validated.data, toolCtx))
    // A read-only tool may ask to read, nothing more: a request beyond its facts is refused, never offered.
    if (need && tool.readOnly && need.type !== 'read') {
      this.deps.log?.(`tool ${tool.name} is read-only but asked for ${need.type}`)
      const message = `${call.name} is a read-only tool and cannot ask for ${need.type} access.`
      return { kind: 'error', result: errorResult(call, route, 'not_read_only', message) }
    }
    return { kind: 'agent', tool, args: validated.data, need, route, toolCtx }
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

  private verdict(prepared: Exclude<Prepared, { kind: 'error' }>, ctx: ToolSessionContext): GateResult {
    const verdict = this.deps.permissions.evaluate(prepared.need, normalizePermissionMode(ctx.permissionMode))
    if (
      verdict.status === 'ask' &&
      prepared.kind === 'mcp' &&
      this.deps.mcpAutoApprove?.(prepared.route.serverId, prepared.route.originalName)
    ) {
      return { status: 'allow', via: 'server autoApproveTools' }
    }
    return verdict
  }

  private toolContext(call: MCPToolCall, ctx: ToolSessionContext, sandboxAvailable = false): ToolContext {
    const toolSearch = this.deferredTools.port(ctx.sessionId)
    return {
      ...(toolSearch ? { toolSearch } : {}),
      sessionId: ctx.sessionId,
      toolCallId: call.id,
      workspaceDir: ctx.workspaceDir,
      sessionDataDir: this.sessionDataDir(ctx.sessionId),
      permissionMode: normalizePermissionMode(ctx.permissionMode),
      sandboxAvailable,
      signal: ctx.signal,
      onProgress: ctx.onProgress,
      runtime: this.deps.runtime,
      files: this.files,
      commands: this.commands,
      processes: this.processes,
      shellCaptures: this.shellCaptures
    }
  }

  private annotationRisk(route: ToolRoute): RiskLevel {
    if (route.destructiveHint) return 'high'
    return route.readOnlyHint ? 'low' : 'medium'
  }

  private async runAgentTool(tool: AgentTool, args: unknown, toolCtx: ToolContext): Promise<AgentToolResult> {
    try {
      return await tool.execute(args, toolCtx)
    } catch (error) {
      const code = error instanceof ToolError ? error.code : 'tool_failed'
      const message = error instanceof Error ? error.message : String(error)
      if (!(error instanceof ToolError)) this.deps.log?.(`tool ${tool.name} failed: ${message}`)
      return { ok: false, summary: message, content: `Error: ${message}`, error: { code, message } }
    }
  }

  private async runMcpTool(
    route: ToolRoute,
    args: Record<string, unknown>,
    ctx: ToolSessionContext
  ): Promise<AgentToolResult> {
    try {
      const result = await this.deps.mcp.callTool(route.serverId, route.originalName, args, {
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
}

function mcpNeed(
  call: MCPToolCall,
  route: ToolRoute,
  ctx: ToolSessionContext,
  risk: RiskLevel
): PermissionRequest {
  const reason = reasonOf('mcp_call', { tool: route.originalName, server: route.serverId })
  return {
    type: 'mcp',
    tool: call.name,
    server: route.serverId,
    originalTool: route.originalName,
    sessionId: ctx.sessionId,
    risk,
    reason: reason.text,
    reasonCodes: [reason.code],
    suggestedRule: { kind: 'mcp', pattern: `${route.serverId}/${route.originalName}`, effect: 'allow' }
  }
}

/** An MCP tool that says it only reads may run in parallel with other such calls. */
function mcpToolFacts(annotations: MCPToolDefinition['annotations']): ToolFacts {
  const readOnly = annotations?.readOnlyHint === true
  return { readOnly, parallelSafe: readOnly }
}

function toContent(content: string | ToolContentItem[]): ToolContentItem[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content
}

function summarize(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 240 ? `${flat.slice(0, 237)}...` : flat
}

function errorResult(
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

export type { AgentToolRuntimePort } from './runtimePorts'
export type { McpToolSource } from './mcpToolSource'
