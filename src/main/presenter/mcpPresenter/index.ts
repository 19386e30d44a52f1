import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { AppError } from '@shared/errors'
import {
  McpElicitationAnswer,
  McpSamplingDecision,
  type McpCompletionRequest,
  type McpCompletionResult,
  type McpPromptResult,
  type McpPromptView,
  type McpResourceContents,
  type McpResourceTemplateView,
  type McpResourceView,
  type McpServerConfig,
  type McpServerInput,
  type McpServerPatch,
  type McpServerView,
  type McpToolView
} from '@shared/types/mcp'
import {
  mcpCatalogChanged,
  mcpConfigChanged,
  mcpServerStatusChanged
} from '@shared/contracts/events/mcp.events'
import type { EventSink } from '../../bridge/events'
import type {
  McpCallOptions,
  McpCallResult,
  McpServerTool,
  McpToolSource
} from '../toolPresenter/mcpToolSource'
import { toCallError } from './callErrors'
import {
  pickAnnotations,
  toPromptView,
  toResourceView,
  toServerTool,
  toTemplateView,
  toToolView,
  matchesQuery
} from './catalogViews'
import type { McpRoot } from './clientHandlers'
import { McpConfigStore, type McpConfigBackend, type StoredServerConfig } from './configStore'
import { formatMcpServersJson, parseMcpServersJson } from './importExport'
import { BUILTIN_SERVERS, createBuiltinServer, type BuiltinDeps } from './inMemoryServers'
import { InteractionBroker, type SamplingModelRunner } from './interactionBroker'
import { McpClient } from './mcpClient'
import { McpOAuthProvider, type McpOAuthOptions } from './oauth'
import { oauthStateOf } from './oauthState'
import type { McpOAuthState } from '@shared/types/mcp'
import { mapContentItem } from './resultMapper'
import { ServerManager, type ReconnectPolicy } from './serverManager'
import { ToolManager } from './toolManager'
import { RootsTracker } from './rootsTracker'
import { ToolPins, type HeldReason } from './toolPins'
import { mcpToolPinsChanged } from '@shared/contracts/events/mcpToolPins.events'
import type { McpToolChange } from '@shared/types/mcpToolPins'
import { exposeToolNames, slugOfExposedName, type ExposedToolName } from './toolNames'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { McpRegistry } from './registry'

/**
 * Decides whether a tool call may run. The permission services implement it and throw a
 * PermissionRequiredError when the user has to approve; `autoApproved` says whether the server
 * config already allows the tool. Annotations are passed for display only: they never grant.
 */
export interface McpPermissionGate {
  assertAllowed(request: {
    serverId: string
    serverName: string
    toolName: string
    args: Record<string, unknown>
    autoApproved: boolean
    annotations?: McpServerTool['annotations']
    /** The user approved this one call just now (deny rules still win). */
    allowOnce?: boolean
  }): Promise<void>
}

export interface McpPresenterDeps {
  config: McpConfigBackend
  events: EventSink
  /** Base env for stdio servers: login-shell PATH plus a few safe variables. Cached by the caller. */
  shellEnv: () => Promise<Record<string, string>>
  /** The app's network door (its proxy) for http/sse servers; plain fetch when absent. */
  fetch?: typeof globalThis.fetch
  clientInfo?: { name: string; version: string }
  reconnect?: Partial<ReconnectPolicy>
  sampler?: () => SamplingModelRunner | undefined
  permissionGate?: McpPermissionGate
  /** What built-in servers may use (history search, …). */
  builtinDeps?: BuiltinDeps
  /** Built-in servers by command name; tests add their own. */
  builtins?: (name: string) => McpServer | undefined
  /** OAuth sign-in for http/sse servers (browser + loopback redirect); omit to use static headers only. */
  oauth?: Omit<McpOAuthOptions, 'secrets'>
  interactionTimeoutMs?: number
  /** Test knob of the registry browser: http registries, remotes and npm registries on this machine. */
  registryAllowLoopbackHttp?: boolean
  log?: (message: string) => void
}

/** Fields whose change needs a new connection. */
const CONNECTION_FIELDS = ['type', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'timeoutMs'] as const

/**
 * MCP servers: their config, their lifecycle and their catalog, and the tool-call path the
 * ToolPresenter uses (McpToolSource).
 */
export class McpPresenter implements McpToolSource {
  readonly store: McpConfigStore
  readonly interactions: InteractionBroker
  /** Settings › MCP › Browse registry: search the MCP Registry and install from it. */
  readonly registry: McpRegistry
  private readonly servers: ServerManager
  private readonly catalog: ToolManager
  private readonly roots: RootsTracker
  private readonly pins: ToolPins
  private disposed = false
  /** Exposed names per tool list (a refresh makes a new list) and slug. */
  private readonly names = new WeakMap<
    readonly Tool[],
    { slug: string; names: Map<string, ExposedToolName> }
  >()

  constructor(private readonly deps: McpPresenterDeps) {
    this.store = new McpConfigStore(deps.config)
    this.roots = new RootsTracker(async (serverId) => {
      if (!this.servers.runningIds().includes(serverId)) return
      await this.servers
        .client(serverId)
        .sendRootsListChanged()
        .catch(() => {})
    })
    this.interactions = new InteractionBroker({
      events: deps.events,
      roots: (serverId) => this.roots.rootsOf(serverId),
      sampler: deps.sampler,
      answerTimeoutMs: deps.interactionTimeoutMs
    })
    this.pins = new ToolPins(
      deps.config,
      (serverId, pending) => deps.events.emit(mcpToolPinsChanged, { serverId, pending }),
      deps.log
    )
    this.catalog = new ToolManager((serverId, kinds) => {
      if (kinds.includes('tools')) this.observePins(serverId)
      deps.events.emit(mcpCatalogChanged, { serverId, kinds })
    })
    this.servers = new ServerManager({
      resolveConfig: (id) => this.store.resolve(id),
      createClient: (config, events) =>
        new McpClient(config, {
          baseEnv: deps.shellEnv,
          fetch: deps.fetch,
          createInMemoryServer: (name) => this.createBuiltin(name),
          createAuthProvider: deps.oauth ? (config) => this.authProviderFor(config) : undefined,
          handlers: this.interactions,
          events,
          clientInfo: deps.clientInfo ?? { name: 'deepchat-desk', version: '0.0.0' }
        }),
      onStatus: (status) => deps.events.emit(mcpServerStatusChanged, { status }),
      onConnected: (id, client) => this.catalog.load(id, client),
      onDisconnected: (id) => {
        this.catalog.drop(id)
        this.interactions.cancelForServer(id, 'the server disconnected')
      },
      onListChanged: (id, kind, client) => void this.catalog.refresh(id, client, kind),
      reconnect: deps.reconnect
    })
    this.registry = new McpRegistry({
      config: deps.config,
      fetch: deps.fetch ?? globalThis.fetch,
      servers: {
        addServer: (input, options) => this.addServer(input, options),
        serverIds: () => this.store.list().map((s) => s.id)
      },
      serverEnv: deps.shellEnv,
      allowLoopbackHttp: deps.registryAllowLoopbackHttp
    })
  }

  // ---- config -------------------------------------------------------------------------

  listServers(): McpServerView[] {
    return this.store.list().map((s) => this.view(s))
  }

  getServer(id: string): McpServerView {
    return this.view(this.store.require(id))
  }

  /** `secretKeys`: env and header names stored as secrets whatever they are called (the registry's `isSecret`). */
  async addServer(
    input: McpServerInput,
    options: { secretKeys?: { env: string[]; headers: string[] } } = {}
  ): Promise<McpServerView> {
    this.checkBuiltin(input)
    const stored = await this.store.add(input, options.secretKeys)
    this.deps.events.emit(mcpConfigChanged, { serverIds: [stored.id] })
    if (stored.enabled) this.startInBackground(stored.id)
    return this.view(stored)
  }

  async updateServer(id: string, patch: McpServerPatch): Promise<McpServerView> {
    const before = this.store.require(id)
    this.checkBuiltin({ type: patch.type ?? before.type, command: patch.command ?? before.command })
    const stored = await this.store.update(id, patch)
    this.deps.events.emit(mcpConfigChanged, { serverIds: [id] })
    const state = this.servers.status(id).state
    const reconnect = CONNECTION_FIELDS.some((key) => key in patch)
    const switchedOn = stored.enabled && !before.enabled
    if (!stored.enabled && state !== 'stopped') await this.servers.stop(id)
    else if (switchedOn || (stored.enabled && reconnect && state !== 'stopped')) {
      await this.servers.stop(id)
      this.startInBackground(id)
    } else if (before.disabledTools.join() !== stored.disabledTools.join() || before.slug !== stored.slug) {
      // A new slug renames every tool the model sees: chats rebuild their tool lists.
      this.deps.events.emit(mcpCatalogChanged, { serverId: id, kinds: ['tools'] })
    }
    return this.view(stored)
  }

  async removeServer(id: string): Promise<void> {
    this.store.require(id)
    await this.servers.remove(id)
    this.roots.forget(id)
    await this.store.remove(id)
    this.pins.forget(id)
    await McpOAuthProvider.forget(id, this.deps.config)
    this.deps.events.emit(mcpConfigChanged, { serverIds: [id] })
  }

  async setEnabled(id: string, enabled: boolean): Promise<McpServerView> {
    return this.updateServer(id, { enabled })
  }

  async importJson(
    text: string
  ): Promise<{ imported: McpServerView[]; skipped: { name: string; reason: string }[] }> {
    const parsed = parseMcpServersJson(text)
    const imported: McpServerView[] = []
    const skipped = [...parsed.skipped]
    const existingNames = new Set(this.store.list().map((s) => s.name))
    for (const input of parsed.servers) {
      if (existingNames.has(input.name)) {
        skipped.push({ name: input.name, reason: 'a server with this name already exists' })
        continue
      }
      try {
        imported.push(await this.addServer(input))
        existingNames.add(input.name)
      } catch (error) {
        skipped.push({ name: input.name, reason: error instanceof Error ? error.message : String(error) })
      }
    }
    return { imported, skipped }
  }

  /** The `{"mcpServers": …}` JSON; secrets stay masked unless explicitly asked for. */
  async exportJson(options: { includeSecrets?: boolean } = {}): Promise<string> {
    const servers: McpServerConfig[] = options.includeSecrets
      ? await Promise.all(this.store.list().map((s) => this.store.resolve(s.id)))
      : this.store.list()
    return JSON.stringify(formatMcpServersJson(servers), null, 2)
  }

  private createBuiltin(name: string): McpServer | undefined {
    return this.deps.builtins?.(name) ?? createBuiltinServer(name, this.deps.builtinDeps)
  }

  private checkBuiltin(server: { type: string; command?: string }): void {
    if (
      server.type === 'inmemory' &&
      server.command &&
      !BUILTIN_SERVERS[server.command] &&
      !this.deps.builtins?.(server.command)
    ) {
      throw new AppError('mcp_unknown_builtin', `There is no built-in MCP server named "${server.command}"`)
    }
  }

  private view(stored: StoredServerConfig): McpServerView {
    const skippedTools = this.catalog.catalog(stored.id).skippedTools
    return {
      ...stored,
      status: this.servers.status(stored.id),
      ...(skippedTools.length ? { skippedTools } : {})
    }
  }

  /**
   * A server gets OAuth unless it already sends its own Authorization header (a static token).
   */
  private async authProviderFor(config: McpServerConfig): Promise<McpOAuthProvider | undefined> {
    if (!this.deps.oauth || Object.keys(config.headers).some((h) => h.toLowerCase() === 'authorization'))
      return undefined
    return McpOAuthProvider.create(config.id, { ...this.deps.oauth, secrets: this.deps.config })
  }

  // ---- lifecycle ----------------------------------------------------------------------

  /** Adds built-ins on first launch, then starts every enabled server in parallel. Never throws. */
  async startEnabledServers(): Promise<void> {
    try {
      await this.store.seedBuiltins(Object.values(BUILTIN_SERVERS).map((b) => b.defaults))
      if (this.disposed) return
      const enabled = this.store.list().filter((s) => s.enabled)
      await Promise.all(enabled.map((s) => this.servers.start(s.id).catch(() => undefined)))
    } catch (error) {
      // Quitting during startup closes the database under us; nothing to report then.
      if (!this.disposed) this.deps.log?.(`mcp: starting servers failed: ${String(error)}`)
    }
  }

  private startInBackground(id: string): void {
    void this.servers.start(id).catch((error) => this.deps.log?.(`mcp: start ${id} failed: ${String(error)}`))
  }

  async startServer(id: string): Promise<McpServerView> {
    this.store.require(id)
    await this.servers.start(id)
    return this.getServer(id)
  }

  async stopServer(id: string): Promise<McpServerView> {
    this.store.require(id)
    await this.servers.stop(id)
    return this.getServer(id)
  }

  async restartServer(id: string): Promise<McpServerView> {
    this.store.require(id)
    await this.servers.restart(id)
    return this.getServer(id)
  }

  oauthState(id: string): Promise<McpOAuthState> {
    return oauthStateOf(this.store.require(id), this.deps.config, Boolean(this.deps.oauth))
  }

  /** Forgets the stored OAuth client and tokens and stops the server (it cannot connect without them). */
  async oauthSignOut(id: string): Promise<{ server: McpServerView; oauth: McpOAuthState }> {
    this.store.require(id)
    await McpOAuthProvider.forget(id, this.deps.config)
    await this.servers.stop(id)
    return { server: this.getServer(id), oauth: await this.oauthState(id) }
  }

  /** Enabled servers with their secrets filled in, for handing on to ACP agents. Never sent to the renderer. */
  async enabledServerConfigs(): Promise<McpServerConfig[]> {
    const enabled = this.store.list().filter((s) => s.enabled)
    return Promise.all(enabled.map((s) => this.store.resolve(s.id)))
  }

  /**
   * Enabled servers that are running now, secrets filled in: what an ACP agent is handed. A
   * server in error (or still starting) would only make the agent's `session/new` wait on it.
   */
  async runningServerConfigs(): Promise<McpServerConfig[]> {
    const running = this.store
      .list()
      .filter((s) => s.enabled && this.servers.status(s.id).state === 'running')
    return Promise.all(running.map((s) => this.store.resolve(s.id)))
  }

  async dispose(): Promise<void> {
    this.disposed = true
    await this.servers.stopAll()
  }

  /** The roots of servers no chat has called yet (see RootsTracker for the per-chat ones). */
  setRoots(roots: McpRoot[]): void {
    void this.roots.setDefault(roots, this.servers.runningIds())
  }

  /** A chat's workspace folder changed: the servers it used last are told their new roots. */
  sessionWorkspaceChanged(sessionId: string, workspaceDirs: string[]): Promise<void> {
    return this.roots.sessionChanged({ sessionId, workspaceDirs })
  }

  // ---- catalog ------------------------------------------------------------------------

  private runningServers(serverId?: string): StoredServerConfig[] {
    const running = new Set(this.servers.runningIds())
    return this.store.list().filter((s) => running.has(s.id) && (!serverId || s.id === serverId))
  }

  /** McpToolSource: enabled tools of running servers. */
  async listTools(): Promise<McpServerTool[]> {
    return this.runningServers().flatMap((server) => {
      const tools = this.catalog.catalog(server.id).tools
      const names = this.exposedNames(server.slug, tools)
      const held = this.heldTools(server)
      return tools
        .filter((tool) => !server.disabledTools.includes(tool.name) && !held.has(tool.name))
        .map((tool) => toServerTool(server, tool, names.get(tool.name)!))
    })
  }

  /** Every tool, disabled ones included, for the settings page, with the name the model sees. */
  listToolViews(serverId?: string): McpToolView[] {
    return this.runningServers(serverId).flatMap((server) => {
      const tools = this.catalog.catalog(server.id).tools
      const names = this.exposedNames(server.slug, tools)
      const held = this.heldTools(server)
      return tools.map((t) => {
        const view = toToolView(server, t, names.get(t.name)!)
        return held.has(t.name) ? { ...view, heldForReview: held.get(t.name)! } : view
      })
    })
  }

  /** McpToolSource: why a tool the model knows cannot be called now (server off, gone, tool removed). */
  explainUnavailable(ref: { exposedName: string; serverId?: string; toolName?: string }): string | null {
    const slug = slugOfExposedName(ref.exposedName)
    const server =
      (ref.serverId ? this.store.get(ref.serverId) : undefined) ??
      this.store.list().find((s) => s.slug === slug)
    if (!server) return ref.serverId ? `its MCP server was removed` : null
    const label = `MCP server "${server.name}"`
    if (!server.enabled) return `${label} is switched off`
    const status = this.servers.status(server.id)
    if (status.state !== 'running') {
      const why = status.lastError ? ` (${status.lastError})` : ''
      return `${label} is ${status.state === 'error' ? 'in error' : status.state}${why}`
    }
    const tool = ref.toolName ?? this.toolNamed(server, ref.exposedName)
    if (tool && server.disabledTools.includes(tool)) return `${label} has the tool "${tool}" switched off`
    if (tool && this.heldTools(server).has(tool)) return heldReason(label, tool)
    return `${label} no longer offers ${tool ? `"${tool}"` : 'this tool'}`
  }

  private toolNamed(server: StoredServerConfig, exposedName: string): string | undefined {
    const tools = this.catalog.catalog(server.id).tools
    for (const [name, exposed] of this.exposedNames(server.slug, tools))
      if (exposed.name === exposedName) return name
    return undefined
  }

  private exposedNames(slug: string, tools: readonly Tool[]): Map<string, ExposedToolName> {
    const cached = this.names.get(tools)
    if (cached?.slug === slug) return cached.names
    const names = exposeToolNames(
      slug,
      tools.map((t) => t.name)
    )
    this.names.set(tools, { slug, names })
    return names
  }

  /** Prompts of running servers (one, or all), those matching `query` only when given. */
  listPrompts(serverId?: string, query?: string): McpPromptView[] {
    return this.runningServers(serverId)
      .flatMap((s) => this.catalog.catalog(s.id).prompts.map((p) => toPromptView(s.id, p)))
      .filter((view) => matchesQuery(view, query))
  }

  listResources(
    serverId?: string,
    query?: string
  ): { resources: McpResourceView[]; templates: McpResourceTemplateView[] } {
    const servers = this.runningServers(serverId)
    return {
      resources: servers
        .flatMap((s) => this.catalog.catalog(s.id).resources.map((r) => toResourceView(s.id, r)))
        .filter((view) => matchesQuery(view, query)),
      templates: servers
        .flatMap((s) => this.catalog.catalog(s.id).resourceTemplates.map((t) => toTemplateView(s.id, t)))
        .filter((view) => matchesQuery(view, query))
    }
  }

  /** Argument suggestions from the server; none when it does not offer completions. */
  async complete(request: McpCompletionRequest): Promise<McpCompletionResult> {
    this.store.require(request.serverId)
    const client = this.servers.client(request.serverId)
    if (!client.capabilities?.completions) return { values: [] }
    return client.complete(request)
  }

  async getPrompt(serverId: string, name: string, args: Record<string, string>): Promise<McpPromptResult> {
    const server = this.store.require(serverId)
    try {
      const result = await this.servers.client(serverId).getPrompt(name, args)
      return {
        ...(result.description ? { description: result.description } : {}),
        messages: result.messages.map((m) => ({
          role: m.role,
          content: mapContentItem(m.content as { type?: unknown })
        }))
      }
    } catch (error) {
      throw toCallError(error, {
        serverId,
        serverName: server.name,
        toolName: `prompt ${name}`,
        timeoutMs: server.timeoutMs
      })
    }
  }

  async readResource(serverId: string, uri: string): Promise<McpResourceContents[]> {
    const server = this.store.require(serverId)
    try {
      const result = await this.servers.client(serverId).readResource(uri)
      return result.contents.map((c) => ({
        uri: c.uri,
        ...(c.mimeType ? { mimeType: c.mimeType } : {}),
        ...('text' in c && typeof c.text === 'string' ? { text: c.text } : {}),
        ...('blob' in c && typeof c.blob === 'string' ? { blob: c.blob } : {})
      }))
    } catch (error) {
      throw toCallError(error, {
        serverId,
        serverName: server.name,
        toolName: `resource ${uri}`,
        timeoutMs: server.timeoutMs
      })
    }
  }

  // ---- calls --------------------------------------------------------------------------

  /** Whether the server config lets this tool run without asking (`autoApproveTools`, `*` for all). */
  isAutoApproved(serverId: string, toolName: string): boolean {
    const server = this.store.get(serverId)
    if (!server) return false
    return server.autoApproveTools.includes(toolName) || server.autoApproveTools.includes('*')
  }

  /**
   * McpToolSource: runs a tool. Permission is the caller's job (ToolPresenter asks the
   * permission services first); this checks the tool exists and is not disabled.
   */
  async callTool(
    serverId: string,
    toolName: string,
    args: Record<string, unknown>,
    options: McpCallOptions = {}
  ): Promise<McpCallResult> {
    const server = this.store.require(serverId)
    const context = {
      serverId,
      serverName: server.name,
      toolName,
      timeoutMs: server.timeoutMs,
      signal: options.signal
    }
    try {
      if (server.disabledTools.includes(toolName)) {
        throw new AppError(
          'mcp_tool_disabled',
          `Tool "${toolName}" of MCP server "${server.name}" is disabled`
        )
      }
      const client = this.servers.client(serverId)
      if (!this.catalog.catalog(serverId).tools.some((t) => t.name === toolName)) {
        throw new AppError('mcp_tool_not_found', `MCP server "${server.name}" has no tool "${toolName}"`)
      }
      if (this.heldTools(server).has(toolName))
        throw new AppError('mcp_tool_changed', heldReason(`MCP server "${server.name}"`, toolName))
      if (options.session) await this.roots.useFor(serverId, options.session)
      if (options.signal?.aborted)
        throw new AppError('mcp_cancelled', `Call to "${toolName}" was cancelled before it started`)
      const { session: _session, ...callOptions } = options
      return await client.callTool(toolName, args, { ...callOptions, timeoutMs: server.timeoutMs })
    } catch (error) {
      // Let the close handler record why the server went away before the message is built.
      await new Promise((resolve) => setImmediate(resolve))
      throw toCallError(error, { ...context, serverError: this.servers.lastError(serverId) })
    }
  }

  /** The settings test panel's call: same permission path as the chat loop. */
  async callToolChecked(
    serverId: string,
    toolName: string,
    args: Record<string, unknown>,
    options: { allowOnce?: boolean } = {}
  ): Promise<McpCallResult> {
    const server = this.store.require(serverId)
    const autoApproved = this.isAutoApproved(serverId, toolName)
    const tool = this.catalog.catalog(serverId).tools.find((t) => t.name === toolName)
    const annotations = tool ? pickAnnotations(tool) : undefined
    if (this.deps.permissionGate) {
      await this.deps.permissionGate.assertAllowed({
        serverId,
        serverName: server.name,
        toolName,
        args,
        autoApproved,
        annotations,
        allowOnce: options.allowOnce === true
      })
    } else if (!autoApproved && !options.allowOnce) {
      throw new AppError(
        'permission_required',
        `Calling "${toolName}" on MCP server "${server.name}" needs your approval`,
        {
          kind: 'mcp',
          serverId,
          toolName
        }
      )
    }
    return this.callTool(serverId, toolName, args)
  }

  answerElicitation(requestId: string, answer: McpElicitationAnswer): void {
    this.interactions.answerElicitation(requestId, answer)
  }

  answerSampling(requestId: string, decision: McpSamplingDecision): void {
    this.interactions.answerSampling(requestId, decision)
  }

  // ---- tool pins (toolPins.ts) ----------------------------------------------------------

  /** Built-in servers are the app's own code: their tools are not pinned. */
  private pinnable(serverId: string): StoredServerConfig | undefined {
    const server = this.store.get(serverId)
    return server && server.type !== 'inmemory' ? server : undefined
  }

  /** A fresh tool list: the first one of a server pins it; later ones may hold changed tools. */
  private observePins(serverId: string): void {
    if (!this.pinnable(serverId) || !this.catalog.has(serverId)) return
    const catalog = this.catalog.catalog(serverId)
    if (catalog.errors.tools) return // nothing listed: do not pin an empty list
    this.pins.observe(serverId, catalog.tools)
  }

  private heldTools(server: StoredServerConfig): Map<string, HeldReason> {
    if (server.type === 'inmemory') return new Map()
    return this.pins.held(server.id, this.catalog.catalog(server.id).tools)
  }

  /** Tools held off for review (changed since pinned, or new), with their diffs. */
  toolChanges(serverId?: string): McpToolChange[] {
    if (serverId) this.store.require(serverId)
    return this.runningServers(serverId)
      .filter((s) => s.type !== 'inmemory')
      .flatMap((s) => this.pins.changes(s.id, this.catalog.catalog(s.id).tools))
  }

  /** The user accepted these definitions (by the hash shown): they are pinned and offered again. */
  acceptToolChanges(serverId: string, tools: { name: string; hash: string }[]): McpToolChange[] {
    this.requirePinnable(serverId)
    this.pins.accept(serverId, this.catalog.catalog(serverId).tools, tools)
    // Chats rebuild their tool lists: the accepted tools are offered again.
    this.deps.events.emit(mcpCatalogChanged, { serverId, kinds: ['tools'] })
    return this.toolChanges(serverId)
  }

  keepToolsOff(serverId: string, names: string[]): McpToolChange[] {
    this.requirePinnable(serverId)
    this.pins.keepOff(serverId, this.catalog.catalog(serverId).tools, names)
    return this.toolChanges(serverId)
  }

  private requirePinnable(serverId: string): void {
    this.store.require(serverId)
    if (!this.pinnable(serverId))
      throw new AppError('mcp_tool_not_held', 'Tools of built-in servers are not pinned')
  }
}

function heldReason(serverLabel: string, tool: string): string {
  return (
    `${serverLabel} changed the tool "${tool}" (or added it) since you allowed the server; ` +
    'it is off until you review the change in Settings › MCP'
  )
}
