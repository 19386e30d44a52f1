import { stat } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import { randomBytes } from 'node:crypto'
import {
  RequestError,
  type CreateTerminalRequest,
  type TerminalOutputResponse,
  type WaitForTerminalExitResponse
} from '@agentclientprotocol/sdk'
import type { PermissionRequest } from '@shared/types/permission'
import type { SandboxStatus } from '@shared/types/permission'
import type { CommandPermissionService, CommandScope } from '../permission/commandPermissionService'
import { sandboxWritesWorkspace } from '../permission/commandPermissionService'
import { realPathOf } from '../permission/paths'
import type { SandboxPlan } from '../sandbox'
import type { BackgroundProcessManager, ProcessInfo } from '../toolPresenter/agentTools/processManager'
import type { AcpAuthority, AgentRequestContext } from './authority'
import type { TerminalView } from './updateMapper'

/** What a terminal keeps when the agent gives no `outputByteLimit`. */
export const DEFAULT_OUTPUT_BYTES = 1024 * 1024
/** Released terminals remembered per chat, so tool calls can still show their output. */
const RELEASED_KEPT = 100
const WAIT_SLICE_MS = 60 * 60 * 1000

interface AgentTerminal {
  terminalId: string
  chatSessionId: string
  agentSessionId: string
  processId: string
  command: string
  limit: number
  sandboxed: boolean
  /** Set once released: the last view, the process is gone. */
  final?: TerminalView
}

/**
 * `terminal/*` for agents, run through BackgroundProcessManager: each line is judged by the
 * CommandPermissionService in the chat's mode; lines that need no approval run in the OS
 * sandbox (as `exec` runs them), approved ones run on the host as approved. Output is capped
 * to the agent's `outputByteLimit`, cut at the front.
 */
export class AgentTerminals {
  private readonly terminals = new Map<string, AgentTerminal>()

  constructor(
    private readonly deps: {
      processes: BackgroundProcessManager
      commands: CommandPermissionService
      sandbox: { status(): Promise<SandboxStatus> }
      authority: AcpAuthority
      /** Told when a terminal starts or ends, so tool calls showing it are refreshed. */
      onChange: (chatSessionId: string, terminalId: string) => void
    }
  ) {}

  async create(
    ctx: AgentRequestContext,
    agentSessionId: string,
    params: CreateTerminalRequest
  ): Promise<{ terminalId: string }> {
    const line = commandLine(params.command, params.args ?? [], params.env ?? [])
    const cwd = params.cwd
      ? isAbsolute(params.cwd)
        ? params.cwd
        : join(ctx.workspaceDir, params.cwd)
      : ctx.workspaceDir
    const info = await stat(cwd).catch(() => null)
    if (!info?.isDirectory()) throw RequestError.invalidParams({ cwd }, `${cwd} is not a folder`)
    const scope: CommandScope = {
      sessionId: ctx.chatSessionId,
      workspaceDir: ctx.workspaceDir,
      cwd,
      tool: 'terminal/create',
      server: `acp:${ctx.agentId}`
    }
    const sandboxAvailable = (await this.deps.sandbox.status()).available
    const request = this.deps.commands.check(line, scope, ctx.permissionMode, sandboxAvailable)
    const approved: PermissionRequest | null = request
      ? await this.deps.authority.authorize(ctx, request, 'terminal/create', null)
      : null
    const terminalId = `term_${randomBytes(6).toString('hex')}`
    const started = await this.deps.processes.start({
      sessionId: processSession(ctx.chatSessionId),
      command: line,
      cwd,
      logDir: ctx.sessionDataDir,
      keepStdin: false,
      sandbox: approved || ctx.permissionMode === 'full_access' ? undefined : this.plan(ctx, line, cwd),
      onChange: () => this.deps.onChange(ctx.chatSessionId, terminalId)
    })
    this.terminals.set(terminalId, {
      terminalId,
      chatSessionId: ctx.chatSessionId,
      agentSessionId,
      processId: started.processId,
      command: line,
      limit: Math.max(1, params.outputByteLimit ?? DEFAULT_OUTPUT_BYTES),
      sandboxed: started.sandboxed
    })
    return { terminalId }
  }

  output(agentSessionId: string, terminalId: string): TerminalOutputResponse {
    const view = this.view(this.require(agentSessionId, terminalId))
    return { output: view.output, truncated: view.truncated, exitStatus: view.exitStatus }
  }

  async waitForExit(
    agentSessionId: string,
    terminalId: string,
    signal: AbortSignal
  ): Promise<WaitForTerminalExitResponse> {
    const terminal = this.require(agentSessionId, terminalId)
    while (!terminal.final) {
      const session = processSession(terminal.chatSessionId)
      const outcome = await this.deps.processes
        .waitForExitOrYield(session, terminal.processId, WAIT_SLICE_MS, signal)
        // Released meanwhile: its final view has the exit status.
        .catch(() => 'exited' as const)
      if (outcome === 'aborted') throw RequestError.requestCancelled()
      if (outcome === 'exited') break
    }
    return this.view(terminal).exitStatus ?? { exitCode: null, signal: null }
  }

  async kill(agentSessionId: string, terminalId: string): Promise<Record<string, never>> {
    const terminal = this.require(agentSessionId, terminalId)
    if (!terminal.final)
      await this.deps.processes.kill(processSession(terminal.chatSessionId), terminal.processId)
    return {}
  }

  /** Kills the command if it still runs and frees it; its last output stays visible in tool calls. */
  async release(agentSessionId: string, terminalId: string): Promise<Record<string, never>> {
    const terminal = this.require(agentSessionId, terminalId)
    if (terminal.final) return {}
    const session = processSession(terminal.chatSessionId)
    await this.deps.processes.kill(session, terminal.processId)
    terminal.final = this.view(terminal)
    await this.deps.processes.remove(session, terminal.processId)
    this.forgetOldReleased(terminal.chatSessionId)
    return {}
  }

  /** The terminal as tool calls show it, or null for an unknown id. */
  lookup(terminalId: string): TerminalView | null {
    const terminal = this.terminals.get(terminalId)
    return terminal ? this.view(terminal) : null
  }

  /** Kills and forgets every terminal of a chat (the chat was deleted or its agent stopped). */
  async releaseChat(chatSessionId: string): Promise<void> {
    await this.deps.processes.killSessionProcesses(processSession(chatSessionId))
    for (const [id, terminal] of this.terminals)
      if (terminal.chatSessionId === chatSessionId) this.terminals.delete(id)
  }

  async releaseAll(): Promise<void> {
    const chats = new Set([...this.terminals.values()].map((t) => t.chatSessionId))
    await Promise.all([...chats].map((chat) => this.releaseChat(chat)))
  }

  private view(terminal: AgentTerminal): TerminalView {
    if (terminal.final) return terminal.final
    const session = processSession(terminal.chatSessionId)
    const info = this.deps.processes.info(session, terminal.processId)
    const total = info.outputLength
    const window = this.deps.processes.log(
      session,
      terminal.processId,
      Math.max(0, total - terminal.limit),
      terminal.limit
    )
    const output = tailBytes(window.output, terminal.limit)
    return {
      command: terminal.command,
      output,
      truncated: total > output.length,
      exitStatus: exitStatusOf(info),
      sandboxed: terminal.sandboxed
    }
  }

  private plan(ctx: AgentRequestContext, line: string, cwd: string): SandboxPlan {
    const analysis = this.deps.commands.analyze(line, { cwd, workspaceDir: ctx.workspaceDir })
    return {
      workspaceDir: realPathOf(ctx.workspaceDir),
      writableWorkspace: sandboxWritesWorkspace(analysis, ctx.permissionMode)
    }
  }

  private require(agentSessionId: string, terminalId: string): AgentTerminal {
    const terminal = this.terminals.get(terminalId)
    // A terminal belongs to the session that made it: another session cannot read or kill it.
    if (!terminal || terminal.agentSessionId !== agentSessionId)
      throw RequestError.invalidParams({ terminalId }, `No terminal ${terminalId} in this session`)
    return terminal
  }

  private forgetOldReleased(chatSessionId: string): void {
    const released = [...this.terminals.values()].filter((t) => t.chatSessionId === chatSessionId && t.final)
    for (const old of released.slice(0, Math.max(0, released.length - RELEASED_KEPT)))
      this.terminals.delete(old.terminalId)
  }
}

/** Agents' terminals are kept apart from the chat's own `exec` processes. */
function processSession(chatSessionId: string): string {
  return `acp:${chatSessionId}`
}

function exitStatusOf(info: ProcessInfo): TerminalView['exitStatus'] {
  if (info.status === 'running') return null
  return {
    exitCode: info.exitCode,
    signal: info.status === 'killed' && info.exitCode === null ? 'SIGTERM' : null
  }
}

/** The end of `text` within `limit` UTF-8 bytes, never splitting a character. */
export function tailBytes(text: string, limit: number): string {
  if (Buffer.byteLength(text) <= limit) return text
  const bytes = Buffer.from(text, 'utf8')
  let start = bytes.length - limit
  while (start < bytes.length && (bytes[start] & 0xc0) === 0x80) start++
  return bytes.subarray(start).toString('utf8')
}

/**
 * The shell line we judge and run. No args: the command is already a line (as agents send a
 * user's shell command). With args: each word quoted. Env comes first as prefix assignments, so
 * the classifier sees them (they apply to the line's first command).
 */
export function commandLine(command: string, args: string[], env: { name: string; value: string }[]): string {
  for (const { name } of env)
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw RequestError.invalidParams({ name }, `"${name}" is not an environment variable name`)
  const assignments = env.map(({ name, value }) => `${name}=${shellQuote(value)}`)
  const words = args.length ? [command, ...args].map(shellQuote) : [command]
  return [...assignments, ...words].join(' ')
}

export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_/.,:=@%+-]+$/.test(word)) return word
  return `'${word.replace(/'/g, `'\\''`)}'`
}
