import {
  RequestError,
  methods,
  type ClientConnection,
  type InitializeResponse,
  type SessionNotification
} from '@agentclientprotocol/sdk'
import type { AcpProcessView } from '@shared/types/acp'
import { AppError } from '@shared/errors'
import type { ProcessGroupRegistry } from '../hygiene/processGroups'
import type { AcpAuthority } from './authority'
import { connectAgent, type AgentRpc, type ClientHandlers } from './connection'
import { AcpAgentExitedError, agentRequestError } from './errors'
import type { AgentFiles } from './fileAccess'
import { spawnAgent, type AgentChild, type ExitInfo, type LaunchSpec } from './launch'
import type { ProtocolLog } from './protocolLog'
import type { AcpSession } from './session'
import type { AgentTerminals } from './terminals'

/** Updates for a session we do not know yet (sent before `session/new` answered) wait this long. */
const PENDING_UPDATES_MS = 30_000
const PENDING_UPDATES_MAX = 200

export interface AgentServices {
  files: AgentFiles
  terminals: AgentTerminals
  authority: AcpAuthority
  protocolLog: ProtocolLog
}

export interface AgentProcessOptions {
  agentId: string
  workspaceDir: string
  spec: LaunchSpec
  clientInfo: { name: string; version: string }
  services: AgentServices
  groups?: ProcessGroupRegistry
  initializeTimeoutMs: number
  /** Called once when the process ends, whatever the reason. */
  onExit: (process: AgentProcess, exit: ExitInfo) => void
}

/**
 * One agent process for one (agent, workspace): the child, its ACP connection and the chats'
 * sessions inside it. Every request the agent makes names a session and is routed to that
 * chat only; a crash fails the turns in flight, with the exit code or signal and stderr tail.
 */
export class AgentProcess {
  readonly startedAt = Date.now()
  /** Sessions by the agent's session id. */
  readonly sessions = new Map<string, AcpSession>()
  private connection!: ClientConnection
  private initialized!: InitializeResponse
  private readonly pending = new Map<string, { at: number; updates: SessionNotification[] }>()
  private stopping = false

  private constructor(
    private readonly options: AgentProcessOptions,
    readonly child: AgentChild
  ) {}

  static async start(options: AgentProcessOptions): Promise<AgentProcess> {
    const { services, agentId, workspaceDir } = options
    const child = await spawnAgent(options.spec, {
      groups: options.groups,
      onStderrLine: (line) => services.protocolLog.recordStderr(agentId, workspaceDir, line)
    })
    const process = new AgentProcess(options, child)
    process.connection = connectAgent(child, process.handlers(), (direction, message, method) =>
      services.protocolLog.record(agentId, workspaceDir, direction, message, method)
    )
    void child.exited.then((exit) => process.exited(exit))
    try {
      process.initialized = await process.untilExit(
        process.rpc.request(methods.agent.initialize, {
          protocolVersion: 1,
          clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
          clientInfo: {
            name: options.clientInfo.name,
            title: options.clientInfo.name,
            version: options.clientInfo.version
          }
        }),
        'initialize',
        options.initializeTimeoutMs
      )
    } catch (error) {
      await child.kill()
      throw error
    }
    return process
  }

  get agentId(): string {
    return this.options.agentId
  }

  get workspaceDir(): string {
    return this.options.workspaceDir
  }

  get rpc(): AgentRpc {
    return this.connection.agent
  }

  get initialize(): InitializeResponse {
    return this.initialized
  }

  /** True once we asked it to stop (an exit then is no crash). */
  get wasStopped(): boolean {
    return this.stopping
  }

  get alive(): boolean {
    return !this.child.hasExited() && !this.stopping
  }

  view(): AcpProcessView {
    const info = this.initialized?.agentInfo
    return {
      workspaceDir: this.workspaceDir,
      pid: this.child.pid,
      state: this.initialized ? 'running' : 'starting',
      startedAt: this.startedAt,
      sessions: this.sessions.size,
      agentInfo: info ? { name: info.name, title: info.title ?? null, version: info.version } : null
    }
  }

  sessionForChat(chatSessionId: string): AcpSession | undefined {
    return [...this.sessions.values()].find((s) => s.chatSessionId === chatSessionId)
  }

  /** Routes the session's updates (and any that arrived before it was known) to it. */
  register(session: AcpSession): void {
    this.sessions.set(session.sessionId, session)
    const waiting = this.pending.get(session.sessionId)
    this.pending.delete(session.sessionId)
    for (const notification of waiting?.updates ?? []) session.apply(notification.update)
  }

  unregister(sessionId: string): void {
    this.sessions.delete(sessionId)
  }

  /**
   * Waits for `request`, failing early with the exit code and stderr tail if the agent dies
   * first, or after `timeoutMs`.
   */
  async untilExit<T>(request: Promise<T>, method: string, timeoutMs?: number): Promise<T> {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      if (timeoutMs)
        timer = setTimeout(
          () => reject(agentRequestError(this.agentId, method, new Error(`no answer in ${timeoutMs} ms`))),
          timeoutMs
        )
    })
    try {
      return await Promise.race([request.catch((error: unknown) => this.explain(method, error)), timeout])
    } finally {
      if (timer) clearTimeout(timer)
    }
  }

  /** A failed request: the crash when the agent died (the exit lands just after stdout closes). */
  async explain(method: string, error: unknown): Promise<never> {
    const exit = await Promise.race([
      this.child.exited,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 1_000).unref())
    ])
    if (exit) throw new AcpAgentExitedError(this.agentId, exit, this.child.stderrTail())
    throw agentRequestError(this.agentId, method, error)
  }

  async stop(): Promise<void> {
    this.stopping = true
    this.connection?.close()
    await this.child.kill()
  }

  private exited(exit: ExitInfo): void {
    const error = this.stopping
      ? new AppError('acp_agent_stopped', `Agent ${this.agentId} was stopped`, { agentId: this.agentId })
      : new AcpAgentExitedError(this.agentId, exit, this.child.stderrTail())
    for (const session of this.sessions.values()) session.turn?.fail(error)
    this.connection?.close()
    this.options.onExit(this, exit)
  }

  private session(sessionId: string): AcpSession {
    const session = this.sessions.get(sessionId)
    if (!session) throw RequestError.invalidParams({ sessionId }, `Unknown session ${sessionId}`)
    return session
  }

  private handlers(): ClientHandlers {
    const { files, terminals, authority } = this.options.services
    return {
      sessionUpdate: (params) => {
        const session = this.sessions.get(params.sessionId)
        if (session) session.apply(params.update)
        else this.hold(params)
      },
      requestPermission: async (params) => {
        const session = this.session(params.sessionId)
        const known = session.turn?.tools.get(params.toolCall.toolCallId)
        const merged = session.turn?.tools.update(params.toolCall).call
        if (session.turn && merged)
          session.turn.push([{ type: 'tool_call', phase: known ? 'update' : 'start', call: merged }])
        const call = merged ?? {
          id: params.toolCall.toolCallId,
          title: params.toolCall.title ?? params.toolCall.toolCallId,
          kind: params.toolCall.kind ?? 'other',
          status: params.toolCall.status ?? 'pending',
          locations: [],
          content: []
        }
        return authority.agentTool(session.context(), params, call)
      },
      readTextFile: (params) => files.read(this.session(params.sessionId).context(), params),
      writeTextFile: (params) => files.write(this.session(params.sessionId).context(), params),
      createTerminal: (params) =>
        terminals.create(this.session(params.sessionId).context(), params.sessionId, params),
      terminalOutput: async (params) => terminals.output(params.sessionId, params.terminalId),
      waitForTerminalExit: (params, signal) =>
        terminals.waitForExit(params.sessionId, params.terminalId, signal),
      killTerminal: (params) => terminals.kill(params.sessionId, params.terminalId),
      releaseTerminal: (params) => terminals.release(params.sessionId, params.terminalId)
    }
  }

  private hold(notification: SessionNotification): void {
    const now = Date.now()
    for (const [id, entry] of this.pending) if (now - entry.at > PENDING_UPDATES_MS) this.pending.delete(id)
    const entry = this.pending.get(notification.sessionId) ?? { at: now, updates: [] }
    if (entry.updates.length < PENDING_UPDATES_MAX) entry.updates.push(notification)
    this.pending.set(notification.sessionId, entry)
  }
}
