import { realpath, stat } from 'node:fs/promises'
import { isAbsolute } from 'node:path'
import { z } from 'zod'
import { methods } from '@agentclientprotocol/sdk'
import { AppError } from '@shared/errors'
import { acpAgentChanged, acpSessionChanged } from '@shared/contracts/events/acp.events'
import {
  AcpPromptContent,
  type AcpAgentView,
  type AcpCustomAgentInput,
  type AcpCustomAgentPatch,
  type AcpInstallState,
  type AcpLogEntry,
  type AcpRegistry,
  type AcpSessionState,
  type AcpTurnEvent
} from '@shared/types/acp'
import { PermissionMode, type SandboxStatus } from '@shared/types/permission'
import type { EventSink } from '../../bridge/events'
import type { ProcessGroupRegistry } from '../hygiene/processGroups'
import type { PermissionGate } from '../permission'
import type { CommandPermissionService } from '../permission/commandPermissionService'
import type { FilePermissionService } from '../permission/filePermissionService'
import type { SqlitePresenter } from '../sqlitePresenter'
import type { BackgroundProcessManager } from '../toolPresenter/agentTools/processManager'
import { AcpAgentStore, type AcpConfigBackend } from './agentStore'
import { agentView } from './agentView'
import { AcpAuthority } from './authority'
import { agentEnvironment } from './environment'
import { AgentFiles } from './fileAccess'
import type { LaunchSpec } from './launch'
import { LogBatcher } from './logBatcher'
import type { AcpMcpServerSource } from './mcpServers'
import { AgentPool } from './pool'
import { runTurn } from './prompt'
import { ProtocolLog } from './protocolLog'
import { loadBundledRegistry, resolveLaunch, type AgentDefinition } from './registry'
import { AcpSessions } from './sessions'
import { AcpSessionStore } from './sessionStore'
import { AgentTerminals } from './terminals'
import type { AcpTurnHooks } from './turn'

export type { AcpTurnHooks, AcpFileSnapshot } from './turn'
export type { AcpMcpServerSource } from './mcpServers'

export interface AcpPresenterDeps {
  config: AcpConfigBackend
  sqlite: Pick<SqlitePresenter, 'db'>
  events: EventSink
  /** The login-shell env (PATH with nvm, Homebrew, …): agents start with it, like stdio MCP servers. */
  shellEnv: () => Promise<Record<string, string>>
  clientInfo: { name: string; version: string }
  files: FilePermissionService
  commands: CommandPermissionService
  /** Runs agents' terminals (its own instance: agents' commands are not the chat's `exec` processes). */
  processes: BackgroundProcessManager
  sandbox: { status(): Promise<SandboxStatus> }
  /** `<userData>/sessions`: a chat's data folder (terminal logs) is `<root>/<chatSessionId>`. */
  sessionDataRoot: string
  /** Deny rules, full access, grants and remembered rules, before anything is asked. */
  gate?: PermissionGate
  groups?: ProcessGroupRegistry
  /** Our MCP servers for a chat, secrets filled in (createPresenters wires McpPresenter). */
  mcpServersForAgents?: (chatSessionId: string) => Promise<AcpMcpServerSource[]>
  registry?: AcpRegistry
  log?: (message: string) => void
  initializeTimeoutMs?: number
  cancelGraceMs?: number
}

/** What the chat loop passes for one message to an agent. */
export interface AcpPromptInput {
  chatSessionId: string
  agentId: string
  /** The chat's folder: the agent's `cwd`, and the boundary its file and terminal requests are judged by. */
  workspaceDir: string
  content: AcpPromptContent[]
  /** Aborting it is the user's Stop: `session/cancel` is sent, pending asks are withdrawn. */
  signal?: AbortSignal
  /** The chat's permission mode (default `default`). */
  permissionMode?: PermissionMode
  hooks: AcpTurnHooks
}

const PromptInput = z.object({
  chatSessionId: z.string().min(1).max(200),
  agentId: z.string().min(1).max(64),
  workspaceDir: z.string().min(1).refine(isAbsolute, 'must be an absolute path'),
  content: z.array(AcpPromptContent).min(1),
  permissionMode: PermissionMode.default('default')
})

/**
 * ACP agents as a tool source: the agents (bundled registry plus the user's), their processes
 * (one per agent and workspace), chats' sessions with them, prompt turns streamed as our own
 * events, and the boundary their file, terminal and permission requests go through.
 */
export class AcpPresenter {
  private readonly registry: AcpRegistry
  private readonly store: AcpAgentStore
  private readonly protocolLog: ProtocolLog
  private readonly logBatcher: LogBatcher
  private readonly terminals: AgentTerminals
  private readonly pool: AgentPool
  private readonly sessions: AcpSessions
  private readonly sessionStore: AcpSessionStore
  private readonly log: (message: string) => void

  constructor(private readonly deps: AcpPresenterDeps) {
    this.log = deps.log ?? (() => {})
    this.registry = deps.registry ?? loadBundledRegistry()
    this.store = new AcpAgentStore(deps.config)
    this.logBatcher = new LogBatcher(deps.events)
    this.protocolLog = new ProtocolLog((agentId, entry) => this.logBatcher.add(agentId, entry))
    const authority = new AcpAuthority({ gate: deps.gate, log: this.log })
    this.terminals = new AgentTerminals({
      processes: deps.processes,
      commands: deps.commands,
      sandbox: deps.sandbox,
      authority,
      onChange: (chatSessionId, terminalId) => this.terminalChanged(chatSessionId, terminalId)
    })
    this.pool = new AgentPool({
      launchSpec: (agentId, workspaceDir) => this.launchSpec(agentId, workspaceDir),
      clientInfo: deps.clientInfo,
      services: {
        files: new AgentFiles({ files: deps.files, authority }),
        terminals: this.terminals,
        authority,
        protocolLog: this.protocolLog
      },
      groups: deps.groups,
      initializeTimeoutMs: deps.initializeTimeoutMs ?? 120_000,
      onChange: (agentId) => this.emitAgent(agentId)
    })
    this.sessionStore = new AcpSessionStore(deps.sqlite)
    this.sessions = new AcpSessions({
      pool: this.pool,
      store: this.sessionStore,
      mcpServers: (chatSessionId) => deps.mcpServersForAgents?.(chatSessionId) ?? Promise.resolve([]),
      shellEnv: deps.shellEnv,
      sessionDataRoot: deps.sessionDataRoot,
      setupTimeoutMs: deps.initializeTimeoutMs ?? 120_000,
      onStateChange: (state) => deps.events.emit(acpSessionChanged, { state }),
      log: this.log
    })
  }

  // ---- agents ------------------------------------------------------------------------------

  listAgents(): AcpAgentView[] {
    return this.agentIds().map((id) => this.view(id))
  }

  getAgent(agentId: string): AcpAgentView {
    return this.view(this.requireKnown(agentId))
  }

  /** Enabled agents: phase 2 lists them as models. */
  enabledAgents(): AcpAgentView[] {
    return this.listAgents().filter((a) => a.enabled)
  }

  async setEnabled(agentId: string, enabled: boolean): Promise<AcpAgentView> {
    this.requireKnown(agentId)
    this.store.setEnabled(agentId, enabled)
    if (!enabled) await this.pool.stopAgent(agentId)
    return this.emitAgent(agentId)!
  }

  async addCustomAgent(input: AcpCustomAgentInput): Promise<AcpAgentView> {
    const added = await this.store.addCustom(input, new Set(this.agentIds()))
    return this.emitAgent(added.id)!
  }

  async updateCustomAgent(agentId: string, patch: AcpCustomAgentPatch): Promise<AcpAgentView> {
    await this.store.updateCustom(agentId, patch)
    await this.pool.stopAgent(agentId)
    return this.emitAgent(agentId)!
  }

  async removeCustomAgent(agentId: string): Promise<void> {
    if (!this.store.getCustom(agentId))
      throw new AppError(
        'acp_agent_not_found',
        `No custom agent with id "${agentId}" (registry agents can only be turned off)`
      )
    await this.pool.stopAgent(agentId)
    await this.store.removeCustom(agentId)
    this.sessionStore.deleteAgent(agentId)
    this.protocolLog.clear(agentId)
    this.deps.events.emit(acpAgentChanged, { agentId, agent: null })
  }

  async setEnvOverrides(agentId: string, env: Record<string, string>): Promise<AcpAgentView> {
    this.requireKnown(agentId)
    await this.store.setEnvOverrides(agentId, env)
    await this.pool.stopAgent(agentId)
    return this.emitAgent(agentId)!
  }

  async checkInstall(agentId?: string): Promise<{ agentId: string; install: AcpInstallState }[]> {
    const ids = agentId ? [this.requireKnown(agentId)] : this.agentIds()
    return Promise.all(
      ids.map(async (id) => ({
        agentId: id,
        install: resolveLaunch(this.definition(id), await this.environment(id))
      }))
    )
  }

  protocolLogOf(agentId: string, options: { afterSeq?: number; limit?: number } = {}): AcpLogEntry[] {
    return this.protocolLog.list(this.requireKnown(agentId), options)
  }

  async stopAgent(agentId: string): Promise<AcpAgentView> {
    this.requireKnown(agentId)
    await this.pool.stopAgent(agentId)
    return this.view(agentId)
  }

  // ---- chats -------------------------------------------------------------------------------

  /**
   * Sends one message to the agent in the chat's session (starting the agent and continuing or
   * creating the session as needed) and streams the turn. Ends with a `stop` event; throws an
   * AppError (`acp_agent_exited` with exit code, signal and stderr tail when the agent crashed).
   */
  async *prompt(input: AcpPromptInput): AsyncGenerator<AcpTurnEvent> {
    const parsed = PromptInput.safeParse(input)
    if (!parsed.success)
      throw new AppError(
        'acp_invalid_input',
        parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
      )
    if (typeof input.hooks?.requestPermission !== 'function')
      throw new AppError('acp_invalid_input', 'hooks.requestPermission is required')
    const { chatSessionId, agentId, content, permissionMode } = parsed.data
    this.requireEnabled(agentId)
    const workspaceDir = await realWorkspace(parsed.data.workspaceDir)
    const { session, process } = await this.sessions.open(chatSessionId, agentId, workspaceDir)
    yield* runTurn({
      session,
      process,
      content,
      signal: input.signal,
      permissionMode,
      hooks: input.hooks,
      terminals: (terminalId) => this.terminals.lookup(terminalId),
      cancelGraceMs: this.deps.cancelGraceMs ?? 10_000,
      log: this.log
    })
  }

  /** The chat's session with the agent if it is open (modes, models, commands), else null. */
  getSessionState(chatSessionId: string, agentId: string): AcpSessionState | null {
    return this.sessions.find(chatSessionId, agentId)?.session.state ?? null
  }

  async setSessionMode(chatSessionId: string, agentId: string, modeId: string): Promise<AcpSessionState> {
    const { session, process } = await this.openExisting(chatSessionId, agentId)
    if (!session.state.modes?.availableModes.some((m) => m.id === modeId))
      throw new AppError('acp_invalid_input', `${agentId} offers no mode "${modeId}"`)
    await process.untilExit(
      process.rpc.request(methods.agent.session.setMode, { sessionId: session.sessionId, modeId }),
      'session/set_mode'
    )
    session.setCurrentMode(modeId)
    return session.state
  }

  async setSessionModel(chatSessionId: string, agentId: string, modelId: string): Promise<AcpSessionState> {
    const { session, process } = await this.openExisting(chatSessionId, agentId)
    const models = session.state.models
    if (!models?.availableModels.some((m) => m.id === modelId))
      throw new AppError('acp_invalid_input', `${agentId} offers no model "${modelId}"`)
    if (models.via === 'config_option') {
      const response = await process.untilExit(
        process.rpc.request(methods.agent.session.setConfigOption, {
          sessionId: session.sessionId,
          configId: models.configId!,
          value: modelId
        }),
        'session/set_config_option'
      )
      session.setConfigOptions(response.configOptions)
    } else {
      // Agents on older SDKs (claude-code-acp 0.16) take the model through this unstable method.
      await process.untilExit(
        process.rpc.request('session/set_model', { sessionId: session.sessionId, modelId }),
        'session/set_model'
      )
      session.setLegacyModel(modelId)
    }
    return session.state
  }

  /** A deleted chat: its terminals killed, its sessions closed and forgotten. */
  async forgetChat(chatSessionId: string): Promise<void> {
    await this.terminals.releaseChat(chatSessionId)
    await this.sessions.forgetChat(chatSessionId)
  }

  /** Stops every agent process tree and terminal. Safe to call twice. */
  async dispose(): Promise<void> {
    this.logBatcher.dispose()
    await this.pool.dispose()
    await this.terminals.releaseAll()
  }

  // ---- internals ---------------------------------------------------------------------------

  private async openExisting(chatSessionId: string, agentId: string) {
    const open = this.sessions.find(chatSessionId, agentId)
    if (open) return open
    const stored = this.sessionStore.get(chatSessionId, agentId)
    if (!stored) throw new AppError('acp_no_session', `This chat has not talked to ${agentId} yet`)
    this.requireEnabled(agentId)
    return this.sessions.open(chatSessionId, agentId, stored.workspaceDir)
  }

  private terminalChanged(chatSessionId: string, terminalId: string): void {
    for (const process of this.pool.all()) {
      const turn = process.sessionForChat(chatSessionId)?.turn
      if (!turn) continue
      turn.push(
        turn.tools.refreshTerminal(terminalId).map((call) => ({ type: 'tool_call', phase: 'update', call }))
      )
    }
  }

  private agentIds(): string[] {
    return [...this.registry.agents.map((a) => a.id), ...this.store.listCustom().map((a) => a.id)]
  }

  private requireKnown(agentId: string): string {
    if (!this.agentIds().includes(agentId))
      throw new AppError('acp_agent_not_found', `No agent with id "${agentId}"`)
    return agentId
  }

  private requireEnabled(agentId: string): void {
    if (!this.view(this.requireKnown(agentId)).enabled)
      throw new AppError('acp_agent_disabled', `Agent ${agentId} is turned off in Settings › Agents`)
  }

  private definition(agentId: string): AgentDefinition {
    const custom = this.store.getCustom(agentId)
    if (custom) return { source: 'custom', command: custom.command, args: custom.args }
    const agent = this.registry.agents.find((a) => a.id === agentId)
    if (!agent) throw new AppError('acp_agent_not_found', `No agent with id "${agentId}"`)
    return { source: 'registry', agent }
  }

  private async environment(agentId: string): Promise<Record<string, string>> {
    const { env, overrides } = await this.store.resolvedEnv(agentId)
    return agentEnvironment(await this.deps.shellEnv(), env, overrides)
  }

  private async launchSpec(agentId: string, workspaceDir: string): Promise<LaunchSpec> {
    const env = await this.environment(agentId)
    const install = resolveLaunch(this.definition(agentId), env)
    if (install.status === 'missing')
      throw new AppError('acp_agent_missing', `${agentId} cannot start: ${install.detail}`)
    return { command: install.command, args: install.args, env, cwd: workspaceDir }
  }

  private view(agentId: string): AcpAgentView {
    return agentView({
      agentId,
      custom: this.store.getCustom(agentId),
      registered: this.registry.agents.find((a) => a.id === agentId),
      store: this.store,
      processes: this.pool.processesOf(agentId),
      outcome: this.pool.outcomeOf(agentId)
    })
  }

  private emitAgent(agentId: string): AcpAgentView | null {
    if (!this.agentIds().includes(agentId)) return null
    const agent = this.view(agentId)
    this.deps.events.emit(acpAgentChanged, { agentId, agent })
    return agent
  }
}

/** The workspace's real path (agents sharing a folder through a link share a process). */
async function realWorkspace(path: string): Promise<string> {
  const info = await stat(path).catch(() => null)
  if (!info?.isDirectory())
    throw new AppError('acp_invalid_input', `The chat's folder ${path} does not exist or is not a folder`)
  return realpath(path)
}
