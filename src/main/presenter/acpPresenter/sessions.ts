import { join } from 'node:path'
import { methods, type McpServer } from '@agentclientprotocol/sdk'
import type { AcpSessionState } from '@shared/types/acp'
import type { AgentProcess } from './agentProcess'
import type { AcpMcpServerSource } from './mcpServers'
import { mcpServersForAgent } from './mcpServers'
import type { AgentPool } from './pool'
import { AcpSession, type SessionSetup } from './session'
import type { AcpSessionStore } from './sessionStore'

export interface AcpSessionsOptions {
  pool: AgentPool
  store: AcpSessionStore
  /** Our MCP servers the agent may use in this chat (secrets filled in). */
  mcpServers: (chatSessionId: string) => Promise<AcpMcpServerSource[]>
  /** The login-shell env, for `~` and `$VAR` in MCP commands. */
  shellEnv: () => Promise<Record<string, string>>
  sessionDataRoot: string
  /** How long `session/new`, `session/load` and `session/resume` may take. */
  setupTimeoutMs: number
  onStateChange: (state: AcpSessionState) => void
  log: (message: string) => void
}

/**
 * Chats' sessions with agents. Opening one finds the process for (agent, workspace), then
 * continues the chat's stored session (`session/resume` when the agent offers it, else
 * `session/load`) or starts a new one, and remembers its id for the next restart.
 */
export class AcpSessions {
  private readonly opening = new Map<string, Promise<{ session: AcpSession; process: AgentProcess }>>()

  constructor(private readonly options: AcpSessionsOptions) {}

  open(
    chatSessionId: string,
    agentId: string,
    workspaceDir: string
  ): Promise<{ session: AcpSession; process: AgentProcess }> {
    const key = `${chatSessionId}\0${agentId}\0${workspaceDir}`
    let open = this.opening.get(key)
    if (!open) {
      open = this.openFresh(chatSessionId, agentId, workspaceDir).finally(() => this.opening.delete(key))
      this.opening.set(key, open)
    }
    return open
  }

  /** The chat's session if it is open in a live process (no process is started). */
  find(chatSessionId: string, agentId: string): { session: AcpSession; process: AgentProcess } | undefined {
    for (const process of this.options.pool.processesOf(agentId)) {
      const session = process.alive ? process.sessionForChat(chatSessionId) : undefined
      if (session) return { session, process }
    }
    return undefined
  }

  /** Closes the chat's sessions in every process (`session/close` where offered) and forgets them. */
  async forgetChat(chatSessionId: string): Promise<void> {
    for (const process of this.options.pool.all()) {
      const session = process.sessionForChat(chatSessionId)
      if (!session) continue
      process.unregister(session.sessionId)
      if (process.alive && process.initialize.agentCapabilities?.sessionCapabilities?.close)
        await process.rpc
          .request(methods.agent.session.close, { sessionId: session.sessionId })
          .catch((error: unknown) => this.options.log(`session/close failed: ${String(error)}`))
    }
    this.options.store.deleteChat(chatSessionId)
  }

  private async openFresh(chatSessionId: string, agentId: string, workspaceDir: string) {
    const process = await this.options.pool.acquire(agentId, workspaceDir)
    const already = process.sessionForChat(chatSessionId)
    if (already) return { session: already, process }
    const mcpServers = await this.mcpServersFor(process, chatSessionId)
    const stored = this.options.store.get(chatSessionId, agentId)
    const continued =
      stored && stored.workspaceDir === workspaceDir
        ? await this.continueSession(process, chatSessionId, stored.sessionId, mcpServers)
        : null
    const session = continued ?? (await this.newSession(process, chatSessionId, mcpServers))
    this.options.store.save({ chatSessionId, agentId, sessionId: session.sessionId, workspaceDir })
    return { session, process }
  }

  private async newSession(
    process: AgentProcess,
    chatSessionId: string,
    mcpServers: McpServer[]
  ): Promise<AcpSession> {
    const response = await process.untilExit(
      process.rpc.request(methods.agent.session.new, { cwd: process.workspaceDir, mcpServers }),
      'session/new',
      this.options.setupTimeoutMs
    )
    const session = this.session(process, chatSessionId, response.sessionId)
    session.adopt(response as SessionSetup)
    process.register(session)
    return session
  }

  /** Resume (no history replay) or load; null when the agent has neither or refuses. */
  private async continueSession(
    process: AgentProcess,
    chatSessionId: string,
    sessionId: string,
    mcpServers: McpServer[]
  ): Promise<AcpSession | null> {
    const capabilities = process.initialize.agentCapabilities
    const resume = Boolean(capabilities?.sessionCapabilities?.resume)
    if (!resume && !capabilities?.loadSession) return null
    const session = this.session(process, chatSessionId, sessionId)
    // Registered first: `session/load` replays the history as updates before it answers.
    process.register(session)
    const params = { sessionId, cwd: process.workspaceDir, mcpServers }
    try {
      const setup = resume
        ? await process.untilExit(
            process.rpc.request(methods.agent.session.resume, params),
            'session/resume',
            this.options.setupTimeoutMs
          )
        : await process.untilExit(
            process.rpc.request(methods.agent.session.load, params),
            'session/load',
            this.options.setupTimeoutMs
          )
      session.adopt((setup ?? {}) as SessionSetup)
      return session
    } catch (error) {
      process.unregister(sessionId)
      if (!process.alive) throw error
      this.options.log(
        `Could not continue ${process.agentId} session ${sessionId}, starting a new one: ${String(error)}`
      )
      return null
    }
  }

  private session(process: AgentProcess, chatSessionId: string, sessionId: string): AcpSession {
    return new AcpSession(
      chatSessionId,
      process.agentId,
      sessionId,
      process.workspaceDir,
      join(this.options.sessionDataRoot, chatSessionId),
      this.options.onStateChange
    )
  }

  private async mcpServersFor(process: AgentProcess, chatSessionId: string): Promise<McpServer[]> {
    const [servers, env] = await Promise.all([
      this.options.mcpServers(chatSessionId),
      this.options.shellEnv()
    ])
    return mcpServersForAgent(servers, process.initialize.agentCapabilities?.mcpCapabilities, env)
  }
}
