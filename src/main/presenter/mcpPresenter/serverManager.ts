import { AppError } from '@shared/errors'
import type { McpServerConfig, McpServerState, McpServerStatus } from '@shared/types/mcp'
import type { CatalogKind, McpClient, McpClientEvents } from './mcpClient'
import { describeConnectionError, describeSpawnError } from '../../platform/systemErrorWords'

export interface ReconnectPolicy {
  /** Attempts after a crash before giving up. */
  maxAttempts: number
  baseDelayMs: number
  maxDelayMs: number
  /** Running this long counts as healthy again: the attempt counter starts over. */
  stableMs: number
}

export const DEFAULT_RECONNECT: ReconnectPolicy = {
  maxAttempts: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  stableMs: 30_000
}

const STDERR_TAIL_LINES = 40
/** stderr lines quoted in a failure reason: enough for a stack trace's head. */
const REASON_STDERR_LINES = 5
const STDERR_LINE_CHARS = 500

export interface ServerManagerDeps {
  resolveConfig(id: string): Promise<McpServerConfig>
  createClient(config: McpServerConfig, events: McpClientEvents): McpClient
  onStatus(status: McpServerStatus): void
  onConnected(id: string, client: McpClient): Promise<void> | void
  onDisconnected(id: string): void
  onListChanged(id: string, kind: CatalogKind, client: McpClient): void
  reconnect?: Partial<ReconnectPolicy>
}

interface ServerRuntime {
  id: string
  name: string
  state: McpServerState
  lastError?: string
  stderrTail: string[]
  reconnectAttempt?: number
  /**
   * Crashes in a row: failed reconnects and connections that dropped before `stableMs`. Only a
   * connection that stays up that long resets it, so a server exiting a second after each
   * connect still runs out of attempts.
   */
  failures: number
  client?: McpClient
  connectedAt?: number
  /** Bumped on every start/stop so events from an old connection are ignored. */
  generation: number
  reconnectTimer?: NodeJS.Timeout
  statusTimer?: NodeJS.Timeout
  starting?: Promise<void>
  /** When the reported status last changed: a list read later carries the same stamp as the event. */
  statusAt: number
  serverInfo?: { name: string; version: string }
  /** What the last start ran or reached, for the failure's wording. */
  target?: { command?: string; cwd?: string; url?: string }
}

/**
 * Owns the lifecycle of every server: start, stop, restart, and recovery with backoff when a
 * running server crashes or its connection drops. It never throws from a background path; the
 * outcome is in the status it reports.
 */
export class ServerManager {
  private readonly runtimes = new Map<string, ServerRuntime>()
  private readonly policy: ReconnectPolicy
  private closed = false

  constructor(private readonly deps: ServerManagerDeps) {
    this.policy = { ...DEFAULT_RECONNECT, ...deps.reconnect }
  }

  status(id: string): McpServerStatus {
    const runtime = this.runtimes.get(id)
    if (!runtime) return { serverId: id, state: 'stopped', stderrTail: [], updatedAt: Date.now() }
    return {
      serverId: id,
      state: runtime.state,
      ...(runtime.lastError ? { lastError: runtime.lastError } : {}),
      stderrTail: [...runtime.stderrTail],
      ...(runtime.reconnectAttempt ? { reconnectAttempt: runtime.reconnectAttempt } : {}),
      ...(runtime.serverInfo ? { serverInfo: runtime.serverInfo } : {}),
      updatedAt: runtime.statusAt
    }
  }

  runningIds(): string[] {
    return [...this.runtimes.values()].filter((r) => r.state === 'running' && r.client).map((r) => r.id)
  }

  /** The live client, or a clear error saying why there is none. */
  client(id: string): McpClient {
    const runtime = this.runtimes.get(id)
    if (runtime?.state === 'running' && runtime.client) return runtime.client
    const name = runtime?.name ?? id
    const why =
      !runtime || runtime.state === 'stopped'
        ? 'is stopped'
        : runtime.state === 'starting'
          ? 'is still starting'
          : 'is not running'
    const detail = runtime?.lastError ? ` (${runtime.lastError})` : ''
    throw new AppError('mcp_server_unavailable', `MCP server "${name}" ${why}${detail}`, {
      serverId: id,
      state: runtime?.state ?? 'stopped'
    })
  }

  lastError(id: string): string | undefined {
    return this.runtimes.get(id)?.lastError
  }

  /** Starts the server (or waits for a start in progress) and resolves with its status. */
  async start(id: string): Promise<McpServerStatus> {
    if (this.closed) return this.status(id)
    const runtime = this.runtime(id)
    if (runtime.state === 'running' && runtime.client) return this.status(id)
    if (runtime.starting) {
      await runtime.starting
      return this.status(id)
    }
    clearTimeout(runtime.reconnectTimer)
    runtime.reconnectAttempt = undefined
    runtime.failures = 0
    await this.connect(runtime)
    return this.status(id)
  }

  async stop(id: string): Promise<McpServerStatus> {
    const runtime = this.runtimes.get(id)
    if (!runtime) return this.status(id)
    runtime.generation++
    clearTimeout(runtime.reconnectTimer)
    const client = runtime.client
    runtime.client = undefined
    runtime.starting = undefined
    runtime.reconnectAttempt = undefined
    runtime.failures = 0
    runtime.lastError = undefined
    if (client) this.deps.onDisconnected(id)
    this.setState(runtime, 'stopped')
    await client?.close()
    return this.status(id)
  }

  async restart(id: string): Promise<McpServerStatus> {
    await this.stop(id)
    return this.start(id)
  }

  /** Forgets a removed server entirely. */
  async remove(id: string): Promise<void> {
    await this.stop(id)
    const runtime = this.runtimes.get(id)
    if (runtime) clearTimeout(runtime.statusTimer)
    this.runtimes.delete(id)
  }

  /** Stops everything for good: later starts are ignored (the app is quitting). */
  async stopAll(): Promise<void> {
    this.closed = true
    await Promise.all([...this.runtimes.keys()].map((id) => this.stop(id)))
    for (const runtime of this.runtimes.values()) clearTimeout(runtime.statusTimer)
  }

  private runtime(id: string): ServerRuntime {
    let runtime = this.runtimes.get(id)
    if (!runtime) {
      runtime = {
        id,
        name: id,
        state: 'stopped',
        stderrTail: [],
        generation: 0,
        failures: 0,
        statusAt: Date.now()
      }
      this.runtimes.set(id, runtime)
    }
    return runtime
  }

  private connect(runtime: ServerRuntime): Promise<void> {
    const generation = ++runtime.generation
    const run = this.connectOnce(runtime, generation).finally(() => {
      if (runtime.generation === generation) runtime.starting = undefined
    })
    runtime.starting = run
    return run
  }

  private async connectOnce(runtime: ServerRuntime, generation: number): Promise<void> {
    this.setState(runtime, 'starting')
    let client: McpClient | undefined
    try {
      const config = await this.deps.resolveConfig(runtime.id)
      runtime.name = config.name
      runtime.target =
        config.type === 'stdio'
          ? { command: config.command, cwd: config.cwd || undefined }
          : { url: config.url }
      client = this.deps.createClient(config, this.clientEvents(runtime, generation))
      await client.connect()
      if (runtime.generation !== generation) {
        await client.close()
        return
      }
      runtime.client = client
      runtime.connectedAt = Date.now()
      runtime.lastError = undefined
      runtime.reconnectAttempt = undefined
      const info = client.serverInfo
      runtime.serverInfo = info ? { name: info.name, version: info.version } : undefined
      await this.deps.onConnected(runtime.id, client)
      if (runtime.generation === generation) this.setState(runtime, 'running')
    } catch (error) {
      await client?.close().catch(() => {})
      if (runtime.generation !== generation) return
      runtime.client = undefined
      runtime.lastError = this.describeFailure(runtime, error)
      if (runtime.failures > 0) this.scheduleReconnect(runtime, runtime.lastError)
      else this.setState(runtime, 'error')
    }
  }

  /** The error, then the last lines of stderr (the usual place for the real reason). */
  private describeFailure(runtime: ServerRuntime, error: unknown): string {
    const { command, cwd, url } = runtime.target ?? {}
    const message =
      (command ? describeSpawnError(command, error, { cwd }) : undefined) ??
      describeConnectionError(error, { url }) ??
      (error instanceof Error ? error.message : String(error))
    const tail = runtime.stderrTail.slice(-REASON_STDERR_LINES).filter((line) => !message.includes(line))
    return tail.length ? `${message} — stderr:\n${tail.join('\n')}` : message
  }

  private clientEvents(runtime: ServerRuntime, generation: number): McpClientEvents {
    const current = () => runtime.generation === generation
    return {
      onStderrLine: (line) => {
        runtime.stderrTail.push(
          line.length > STDERR_LINE_CHARS ? `${line.slice(0, STDERR_LINE_CHARS)}…` : line
        )
        if (runtime.stderrTail.length > STDERR_TAIL_LINES)
          runtime.stderrTail.splice(0, runtime.stderrTail.length - STDERR_TAIL_LINES)
        this.emitSoon(runtime)
      },
      onListChanged: (kind) => {
        if (current() && runtime.client) this.deps.onListChanged(runtime.id, kind, runtime.client)
      },
      onUnexpectedClose: (reason) => {
        if (current() && runtime.client) this.handleDrop(runtime, reason)
      },
      onTransportError: () => {
        // Remote transports report a dead server as errors, not as a close: confirm with a ping.
        const client = runtime.client
        if (!current() || !client || client.transportKind === 'stdio' || client.transportKind === 'inmemory')
          return
        client.ping(5_000).catch(() => {
          if (current() && runtime.client === client) {
            void client.close()
            this.handleDrop(runtime, 'the connection was lost')
          }
        })
      }
    }
  }

  private handleDrop(runtime: ServerRuntime, reason: string): void {
    runtime.client = undefined
    this.deps.onDisconnected(runtime.id)
    const healthy =
      runtime.connectedAt !== undefined && Date.now() - runtime.connectedAt >= this.policy.stableMs
    if (healthy) runtime.failures = 0
    runtime.lastError = this.describeFailure(runtime, new Error(reason[0].toUpperCase() + reason.slice(1)))
    this.scheduleReconnect(runtime, runtime.lastError)
  }

  private scheduleReconnect(runtime: ServerRuntime, reason: string): void {
    const attempt = runtime.failures + 1
    if (attempt > this.policy.maxAttempts) {
      runtime.reconnectAttempt = undefined
      runtime.failures = 0
      runtime.lastError = `Gave up after ${this.policy.maxAttempts} reconnect attempts: ${reason}`
      this.setState(runtime, 'error')
      return
    }
    runtime.failures = attempt
    runtime.reconnectAttempt = attempt
    const delay = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** (attempt - 1))
    runtime.lastError = `${reason} — reconnecting (attempt ${attempt}/${this.policy.maxAttempts})`
    this.setState(runtime, 'error')
    const generation = runtime.generation
    clearTimeout(runtime.reconnectTimer)
    runtime.reconnectTimer = setTimeout(() => {
      if (runtime.generation === generation) void this.connect(runtime)
    }, delay)
    runtime.reconnectTimer.unref?.()
  }

  private setState(runtime: ServerRuntime, state: McpServerState): void {
    runtime.state = state
    clearTimeout(runtime.statusTimer)
    runtime.statusTimer = undefined
    this.stamp(runtime)
    this.deps.onStatus(this.status(runtime.id))
  }

  /** Strictly increasing, so two changes in one millisecond are still ordered. */
  private stamp(runtime: ServerRuntime): void {
    runtime.statusAt = Math.max(Date.now(), runtime.statusAt + 1)
  }

  /** stderr can be chatty: coalesce its status updates. */
  private emitSoon(runtime: ServerRuntime): void {
    if (runtime.statusTimer) return
    runtime.statusTimer = setTimeout(() => {
      runtime.statusTimer = undefined
      this.stamp(runtime)
      this.deps.onStatus(this.status(runtime.id))
    }, 200)
    runtime.statusTimer.unref?.()
  }
}
