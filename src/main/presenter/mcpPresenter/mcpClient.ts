import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError
} from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import {
  CancelledNotificationSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  ListRootsRequestSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type Implementation,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type ServerCapabilities,
  type Tool
} from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { AppError } from '@shared/errors'
import { describeExit, watchExit, type ProcessExit } from './processExit'
import type {
  McpCompletionRequest,
  McpCompletionResult,
  McpServerConfig,
  McpSkippedTool
} from '@shared/types/mcp'
import type { McpCallOptions, McpCallResult } from '../toolPresenter/mcpToolSource'
import type { McpClientHandlers } from './clientHandlers'
import { killProcesses, listDescendants } from './killTree'
import { LazyJsonSchemaValidator } from './lazySchemaValidator'
import type { McpOAuthProvider } from './oauth'
import { mapCallResult } from './resultMapper'
import { throttleProgress } from './progressThrottle'
import { sanitizeServerMessage, sanitizeServerText } from './serverText'
import { guardStdioLines, oversizedText } from './stdioLineGuard'
import { splitValidTools } from './toolValidation'
import {
  createHttpTransport,
  createInMemoryTransport,
  createStdioTransport,
  type TransportDeps
} from './transports'

export type CatalogKind = 'tools' | 'prompts' | 'resources'

const CONNECT_TIMEOUT_MS = 30_000

/** A tools/list page read without judging the tools: each is checked on its own (toolValidation). */
const LenientToolsPage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() })

export interface McpClientEvents {
  /** The connection ended without close() being called: crash, exit or dropped network. */
  onUnexpectedClose(reason: string): void
  onStderrLine(line: string): void
  onListChanged(kind: CatalogKind): void
  onTransportError?(error: Error): void
}

export interface McpClientDeps extends TransportDeps {
  /** OAuth for http/sse servers; undefined means static headers only. */
  createAuthProvider?: (config: McpServerConfig) => Promise<McpOAuthProvider | undefined>
  handlers: McpClientHandlers
  events: McpClientEvents
  clientInfo: Implementation
}

/** A 401, whether the SDK ran its auth flow (UnauthorizedError) or had no provider to run. */
function isUnauthorized(error: unknown): boolean {
  if (error instanceof UnauthorizedError) return true
  return (error instanceof StreamableHTTPError || error instanceof SseError) && error.code === 401
}

/**
 * Every message a server sends is cleaned of control and invisible characters before the SDK
 * (and so anything the model or UI shows) sees it: names, descriptions, schemas, results,
 * progress, prompts, elicitation and sampling text, instructions. Protocol.connect sets
 * `onmessage` before it calls `start`, so wrapping at `start` covers the initialize answer too.
 */
function sanitizeIncoming(transport: Transport): void {
  const start = transport.start.bind(transport)
  transport.start = async () => {
    const dispatch = transport.onmessage
    if (dispatch) transport.onmessage = (message, extra) => dispatch(sanitizeServerMessage(message), extra)
    return start()
  }
}

/**
 * The SDK hands notifications to their handlers a microtask later but settles responses at
 * once, so progress notifications that arrive in the same read as the result (a fast tool, a
 * busy machine) find their request already finished and are dropped. Settling responses a
 * microtask later too keeps the order the server wrote them in.
 */
function deliverInArrivalOrder(transport: Transport): void {
  const dispatch = transport.onmessage
  if (!dispatch) return
  transport.onmessage = (message, extra) => {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message))
      queueMicrotask(() => dispatch(message, extra))
    else dispatch(message, extra)
  }
}

export interface CallToolOptions extends McpCallOptions {
  timeoutMs: number
}

/**
 * One live connection to one MCP server: picks the transport, declares the client
 * capabilities, answers server requests through McpClientHandlers and reports the end of the
 * connection. Restarting is the ServerManager's job.
 */
export class McpClient {
  private client?: Client
  private transport?: Transport
  private inMemoryServer?: McpServer
  private closing = false
  private auth?: McpOAuthProvider
  /** Which wire protocol an http server ended up on (Streamable HTTP or the SSE fallback). */
  transportKind?: 'stdio' | 'http' | 'sse' | 'inmemory'

  constructor(
    private readonly config: McpServerConfig,
    private readonly deps: McpClientDeps
  ) {}

  /** How the stdio server's process ended, once it has. */
  private exitOf?: () => ProcessExit | undefined

  get serverInfo(): Implementation | undefined {
    return this.client?.getServerVersion()
  }

  get capabilities(): ServerCapabilities | undefined {
    return this.client?.getServerCapabilities()
  }

  get pid(): number | undefined {
    return this.transport instanceof StdioClientTransport ? (this.transport.pid ?? undefined) : undefined
  }

  async connect(): Promise<void> {
    switch (this.config.type) {
      case 'stdio': {
        const transport = await createStdioTransport(this.config, this.deps)
        // One huge line fails the request it answers, not the connection (see stdioLineGuard).
        guardStdioLines(transport, (bytes) =>
          this.deps.events.onStderrLine(`[DeepChat] ${oversizedText(bytes)}`)
        )
        this.pipeStderr(transport)
        this.exitOf = watchExit(transport)
        try {
          await this.connectWith(transport, 'stdio')
        } catch (error) {
          throw withExit(error, describeExit(this.exitOf()))
        }
        return
      }
      case 'inmemory': {
        const { transport, server } = await createInMemoryTransport(this.config, this.deps)
        this.inMemoryServer = server
        await this.connectWith(transport, 'inmemory')
        return
      }
      case 'sse':
      case 'http':
        this.auth = await this.deps.createAuthProvider?.(this.config)
        await this.connectRemote(this.config.type)
    }
  }

  /** http tries Streamable HTTP first and falls back to SSE; a 401 runs the OAuth flow once. */
  private async connectRemote(type: 'http' | 'sse'): Promise<void> {
    let kind: 'http' | 'sse' = type
    let transport = createHttpTransport(this.config, kind, this.auth, this.deps.fetch)
    try {
      try {
        await this.connectWith(transport, kind)
      } catch (streamableError) {
        if (type !== 'http' || isUnauthorized(streamableError)) throw streamableError
        // Older servers only speak the 2024-11-05 HTTP+SSE transport.
        kind = 'sse'
        transport = createHttpTransport(this.config, kind, this.auth, this.deps.fetch)
        try {
          await this.connectWith(transport, kind)
        } catch {
          throw streamableError
        }
      }
    } catch (error) {
      if (isUnauthorized(error) && !this.auth) {
        throw new AppError(
          'mcp_unauthorized',
          'The server refused the request (HTTP 401): check its Authorization header or token'
        )
      }
      if (!(error instanceof UnauthorizedError) || !this.auth?.awaitingAuthorization) throw error
      // The transport that saw the 401 knows where the resource metadata and scope are.
      await transport.finishAuth(await this.auth.waitForAuthorizationCode())
      await this.connectWith(createHttpTransport(this.config, kind, this.auth, this.deps.fetch), kind)
    }
  }

  /**
   * Runs a request; when the server demands new authorization mid-session (expired grant,
   * or a tool that needs a wider scope: step-up), finishes the sign-in and tries once more.
   */
  private async withReauthorization<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request()
    } catch (error) {
      const transport = this.transport
      if (!(error instanceof UnauthorizedError) || !this.auth?.awaitingAuthorization) throw error
      if (!(transport instanceof StreamableHTTPClientTransport || transport instanceof SSEClientTransport))
        throw error
      await transport.finishAuth(await this.auth.waitForAuthorizationCode())
      return request()
    }
  }

  private pipeStderr(transport: StdioClientTransport): void {
    let pending = ''
    transport.stderr?.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8')
      const lines = pending.split(/\r?\n/)
      pending = lines.pop() ?? ''
      for (const line of lines) {
        const clean = sanitizeServerText(line)
        if (clean.trim()) this.deps.events.onStderrLine(clean)
      }
      if (pending.length > 4_000) {
        this.deps.events.onStderrLine(sanitizeServerText(pending.slice(0, 4_000)))
        pending = ''
      }
    })
  }

  private async connectWith(
    transport: Transport,
    kind: NonNullable<McpClient['transportKind']>
  ): Promise<void> {
    const client = new Client(this.deps.clientInfo, {
      capabilities: {
        elicitation: { form: { applyDefaults: true } },
        sampling: {},
        roots: { listChanged: true }
      },
      jsonSchemaValidator: new LazyJsonSchemaValidator()
    })
    this.registerHandlers(client)
    sanitizeIncoming(transport)
    // Starting (npx downloading a package, a cold interpreter) can take longer than a tool call.
    await client.connect(transport, { timeout: Math.max(this.config.timeoutMs, CONNECT_TIMEOUT_MS) })
    deliverInArrivalOrder(transport)
    this.client = client
    this.transport = transport
    this.transportKind = kind
    client.onclose = () => {
      if (!this.closing)
        this.deps.events.onUnexpectedClose(
          kind === 'stdio'
            ? `the server process ${describeExit(this.exitOf?.()) || 'exited'}`
            : 'the connection was closed'
        )
    }
    client.onerror = (error) => this.deps.events.onTransportError?.(error)
  }

  private registerHandlers(client: Client): void {
    const requester = { serverId: this.config.id, serverName: this.config.name }
    const { handlers, events } = this.deps
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
      const params = request.params as { message: string; requestedSchema?: Record<string, unknown> }
      return handlers.elicit(
        { ...requester, message: params.message, requestedSchema: params.requestedSchema ?? {} },
        extra.signal
      )
    })
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
      handlers.sample({ ...requester, params: request.params }, extra.signal)
    )
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: await handlers.listRoots(this.config.id)
    }))
    // SDK 1.32 ignores a cancellation whose requestId is 0 (a falsy check), and 0 is the id of
    // the first request a server sends us — typically an elicitation. Handle it ourselves.
    client.setNotificationHandler(CancelledNotificationSchema, (notification) => {
      const requestId = notification.params.requestId
      if (requestId === undefined) return
      // The SDK keeps the controllers private: read the field as unknown and check what it holds.
      const controllers: unknown = Reflect.get(client, '_requestHandlerAbortControllers')
      const controller: unknown = controllers instanceof Map ? controllers.get(requestId) : undefined
      if (controller instanceof AbortController) controller.abort(notification.params.reason)
    })
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => events.onListChanged('tools'))
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => events.onListChanged('prompts'))
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () =>
      events.onListChanged('resources')
    )
  }

  private requireClient(): Client {
    if (!this.client) throw new Error(`MCP server "${this.config.name}" is not connected`)
    return this.client
  }

  /** Every tool, the valid ones listed and the broken ones skipped by themselves, with why. */
  async listTools(): Promise<{ tools: Tool[]; skipped: McpSkippedTool[] }> {
    if (!this.capabilities?.tools) return { tools: [], skipped: [] }
    const client = this.requireClient()
    const raw = await this.paginate(async (cursor) => {
      const page = await client.request(
        { method: 'tools/list', params: cursor ? { cursor } : {} },
        LenientToolsPage,
        { timeout: this.config.timeoutMs }
      )
      return { items: page.tools, nextCursor: page.nextCursor }
    })
    const result = splitValidTools(raw)
    // What the SDK's listTools would do: remember output schemas so calls check structured results.
    const remember: unknown = Reflect.get(client, 'cacheToolMetadata')
    if (typeof remember === 'function') remember.call(client, result.tools)
    return result
  }

  async listPrompts(): Promise<Prompt[]> {
    if (!this.capabilities?.prompts) return []
    return this.paginate(async (cursor) => {
      const page = await this.requireClient().listPrompts({ cursor }, { timeout: this.config.timeoutMs })
      return { items: page.prompts, nextCursor: page.nextCursor }
    })
  }

  async listResources(): Promise<Resource[]> {
    if (!this.capabilities?.resources) return []
    return this.paginate(async (cursor) => {
      const page = await this.requireClient().listResources({ cursor }, { timeout: this.config.timeoutMs })
      return { items: page.resources, nextCursor: page.nextCursor }
    })
  }

  async listResourceTemplates(): Promise<ResourceTemplate[]> {
    if (!this.capabilities?.resources) return []
    return this.paginate(async (cursor) => {
      const page = await this.requireClient().listResourceTemplates(
        { cursor },
        { timeout: this.config.timeoutMs }
      )
      return { items: page.resourceTemplates, nextCursor: page.nextCursor }
    })
  }

  /** Follows `nextCursor`, with a page cap so a looping server cannot hang the catalog. */
  private async paginate<T>(
    fetchPage: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>
  ): Promise<T[]> {
    const all: T[] = []
    let cursor: string | undefined
    for (let page = 0; page < 100; page++) {
      const result = await this.withReauthorization(() => fetchPage(cursor))
      all.push(...result.items)
      if (!result.nextCursor || result.nextCursor === cursor) break
      cursor = result.nextCursor
    }
    return all
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallToolOptions
  ): Promise<McpCallResult> {
    const progress = options.onProgress ? throttleProgress(options.onProgress) : undefined
    const raw = await this.withReauthorization(() =>
      this.requireClient().callTool({ name, arguments: args }, undefined, {
        signal: options.signal,
        timeout: options.timeoutMs,
        // A tool that reports progress is alive; the total cap still stops a runaway one.
        resetTimeoutOnProgress: true,
        maxTotalTimeout: options.timeoutMs * 10,
        onprogress: progress ? (p) => progress.push(p) : undefined
      })
    ).finally(() => progress?.flush())
    return mapCallResult(raw as Record<string, unknown>)
  }

  async getPrompt(name: string, args: Record<string, string>) {
    return this.withReauthorization(() =>
      this.requireClient().getPrompt({ name, arguments: args }, { timeout: this.config.timeoutMs })
    )
  }

  async readResource(uri: string) {
    return this.withReauthorization(() =>
      this.requireClient().readResource({ uri }, { timeout: this.config.timeoutMs })
    )
  }

  async complete(request: Omit<McpCompletionRequest, 'serverId'>): Promise<McpCompletionResult> {
    const { completion } = await this.withReauthorization(() =>
      this.requireClient().complete(
        {
          ref: request.ref,
          argument: request.argument,
          ...(request.context ? { context: { arguments: request.context } } : {})
        },
        { timeout: this.config.timeoutMs }
      )
    )
    return {
      values: completion.values.slice(0, 100),
      ...(completion.total !== undefined ? { total: completion.total } : {}),
      ...(completion.hasMore !== undefined ? { hasMore: completion.hasMore } : {})
    }
  }

  async ping(timeoutMs: number): Promise<void> {
    await this.requireClient().ping({ timeout: timeoutMs })
  }

  async sendRootsListChanged(): Promise<void> {
    await this.client?.sendRootsListChanged()
  }

  /** Ends the session and kills the whole process tree of a stdio server. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closing) return
    this.closing = true
    this.auth?.cancel()
    const pid = this.pid
    const descendants = pid ? await listDescendants(pid).catch(() => []) : []
    if (this.transport instanceof StreamableHTTPClientTransport) {
      await this.transport.terminateSession().catch(() => {})
    }
    // Closing stdin asks the server to exit; its children (the real server under `npx`, or
    // anything holding our pipes) get SIGTERM shortly after so close() is not left waiting.
    const killDescendants = descendants.length
      ? new Promise<void>((resolve) => setTimeout(resolve, 300)).then(() => killProcesses(descendants))
      : Promise.resolve()
    await Promise.all([this.client?.close().catch(() => {}), killDescendants])
    if (pid) await killProcesses([pid])
    await this.inMemoryServer?.close().catch(() => {})
  }
}

/** A failed start of a process that exited says how it exited (`… (the process exited with code 3)`). */
function withExit(error: unknown, exit: string): unknown {
  if (!exit || !(error instanceof Error) || error.message.includes(exit)) return error
  error.message = `${error.message} (the process ${exit})`
  return error
}
