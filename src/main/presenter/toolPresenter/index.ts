import { join } from 'node:path'
import { AppError } from '@shared/errors'
import type { MCPToolCall, MCPToolDefinition } from '@shared/types/tools'
import { normalizePermissionMode, type PermissionRequest } from '@shared/types/permission'
import { permissionErrorFor, type PermissionGate } from '../permission'
import { FilePermissionService } from '../permission/filePermissionService'
import { CommandPermissionService } from '../permission/commandPermissionService'
import type { McpServerTool, McpToolSource } from './mcpToolSource'
import type { AgentToolRuntimePort } from './runtimePorts'
import { ToolMapper } from './toolMapper'
import { AgentToolManager } from './agentTools/agentToolManager'
import type { AgentToolResult, ToolContext } from './agentTools/defineTool'
import { ShellCaptures } from './agentTools/shellChanges'
import { BackgroundProcessManager } from './agentTools/processManager'
import { describeZodError } from './argumentParsing'
import { safeName } from './outputGuard'
import { DEFAULT_TOOL_SEARCH_LIMITS, DeferredTools, type ToolSearchLimits } from './deferredTools'
import { buildToolSystemPrompt } from './systemPrompt'
import { offeredTool } from './offeredTools'
import {
  errorResult,
  finishedCall,
  runAgentTool,
  type PreCheckResult,
  type ToolCallResult,
  type ToolSessionContext
} from './callResult'
import { judgeCall, prepareCall, type Prepared } from './callPreparation'
import { mcpToolDefinition, runMcpTool } from './mcpCalls'
import { SessionToolNames } from './sessionToolNames'
import { TOOL } from '@shared/builtinTools'
import type { CommandPreviews } from '../commandPreview'

const TOOL_SEARCH = TOOL.toolSearch

export type { PreCheckResult, ToolCallResult, ToolSessionContext } from './callResult'

export interface ToolPresenterDeps {
  mcp: McpToolSource
  permissions: PermissionGate
  runtime: AgentToolRuntimePort
  /** Parent of every session's data folder (`<userData>/sessions`). */
  sessionDataRoot: string
  processes?: BackgroundProcessManager
  /** What shell commands change, for checkpoints (default: one for this presenter). */
  shellCaptures?: ShellCaptures
  /** Previews of commands waiting for approval (approving applies the preview's changes). */
  commandPreviews?: Pick<CommandPreviews, 'applyApproved'>
  files?: FilePermissionService
  commands?: CommandPermissionService
  /** The OS sandbox's status: whether unasked commands are contained (and `sandboxed` mode works). */
  sandbox?: { status(): Promise<{ available: boolean }> }
  /** The built-in tools' registry; createPresenters builds it first, as a chat's settings read it too. */
  agentTools?: AgentToolManager
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

/**
 * The one flat tool list the model sees: MCP tools first, then built-ins, named per session by a
 * ToolMapper. Calls are routed by that session's mapping only, arguments are parsed and
 * validated, permissions go through the gate, and every result becomes a uniform envelope.
 */
export class ToolPresenter {
  readonly agentTools: AgentToolManager
  readonly processes: BackgroundProcessManager
  private readonly shellCaptures: ShellCaptures
  private readonly names: SessionToolNames
  /** Sessions whose tool list a tool just changed (skill activated, tools switched). */
  private readonly toolsChanged = new Set<string>()
  private readonly files: FilePermissionService
  private readonly commands: CommandPermissionService
  private readonly deferredTools: DeferredTools

  constructor(private readonly deps: ToolPresenterDeps) {
    this.agentTools = deps.agentTools ?? new AgentToolManager()
    this.names = new SessionToolNames({ mcp: deps.mcp, disabledMcpServers: deps.disabledMcpServers })
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
      definitions.push(mcpToolDefinition(tool, name))
    }
    // A catalog too big to send is deferred: found tools are offered, the rest via tool_search.
    const { offered, deferred } = this.deferredTools.offer(ctx.sessionId, definitions)
    definitions.splice(0, definitions.length, ...offered)
    for (const definition of agentDefinitions) {
      mapper.registerAgentTool(definition.function.name, definition.server.id)
      if (definition.function.name === TOOL_SEARCH && !deferred) continue
      definitions.push(definition)
    }
    this.names.offered(ctx.sessionId, mapper, hidden)
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
    const verdict = judgeCall(prepared, ctx, this.deps.permissions, this.deps.mcpAutoApprove)
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
    const verdict = judgeCall(prepared, ctx, this.deps.permissions, this.deps.mcpAutoApprove)
    if (verdict.status === 'deny')
      return errorResult(call, prepared.route, 'permission_denied', verdict.reason)
    if (verdict.status === 'ask') throw permissionErrorFor(prepared.need as PermissionRequest)
    if (ctx.signal?.aborted)
      return errorResult(call, prepared.route, 'aborted', `${call.name} was cancelled before it ran`)
    if (verdict.onceGrant) this.deps.permissions.consume(ctx.sessionId, verdict.onceGrant)

    const result =
      prepared.kind === 'agent'
        ? // The tool re-checks its paths against what the gate allowed, when it runs.
          await runAgentTool(
            prepared.tool,
            prepared.args,
            { ...prepared.toolCtx, approved: prepared.need },
            this.deps.log
          )
        : await runMcpTool(this.deps.mcp, prepared.route, prepared.args, ctx)
    const effects = prepared.kind === 'agent' && result.ok ? result.effects : undefined
    if (effects?.toolsChanged) this.toolsChanged.add(ctx.sessionId)
    return finishedCall(call, prepared.route, result, effects, this.sessionDataDir(ctx.sessionId))
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
    return runAgentTool(tool, parsed.data, this.toolContext(call, ctx), this.deps.log)
  }

  /** Forgets a session's tool names and plan state (session closed or deleted). */
  clearSessionToolMapping(sessionId: string): void {
    this.names.clear(sessionId)
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

  /** Resolves the called name in its session, then prepares the call (callPreparation.ts). */
  private async prepare(call: MCPToolCall, ctx: ToolSessionContext): Promise<Prepared> {
    if (!this.names.has(ctx.sessionId)) await this.getAllToolDefinitions(ctx)
    const found = this.names.lookup(call.name, ctx.sessionId)
    if (!found.ok) return { kind: 'error', result: errorResult(call, found.route, found.code, found.message) }
    return prepareCall(call, found.route, ctx, {
      agentTools: this.agentTools,
      runtime: this.deps.runtime,
      toolContext: async (c, context) =>
        this.toolContext(c, context, (await this.deps.sandbox?.status())?.available ?? false),
      log: this.deps.log
    })
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
      turns: ctx.turns,
      runtime: this.deps.runtime,
      files: this.files,
      commands: this.commands,
      processes: this.processes,
      shellCaptures: this.shellCaptures,
      ...(this.deps.commandPreviews ? { commandPreviews: this.deps.commandPreviews } : {})
    }
  }
}

export type { AgentToolRuntimePort } from './runtimePorts'
export type { McpToolSource } from './mcpToolSource'
