import type { ProcessGroupRegistry } from '../hygiene/processGroups'
import { AgentProcess, type AgentServices } from './agentProcess'
import { exitMessage } from './errors'
import type { ExitInfo, LaunchSpec } from './launch'

export interface AgentPoolOptions {
  /** The launch command, env and cwd for an agent in a workspace (throws when it cannot start). */
  launchSpec: (agentId: string, workspaceDir: string) => Promise<LaunchSpec>
  clientInfo: { name: string; version: string }
  services: AgentServices
  groups?: ProcessGroupRegistry
  initializeTimeoutMs: number
  /** A process started, ended or failed to start. */
  onChange: (agentId: string) => void
}

/** Why an agent's last process ended or failed, and its last stderr lines. */
export interface AgentOutcome {
  lastError?: string
  stderrTail: string[]
}

/**
 * One process per (agent, workspace), started on first use and shared by the chats working in
 * that folder. A process that ended is dropped, and the next use starts a new one.
 */
export class AgentPool {
  private readonly running = new Map<string, AgentProcess>()
  private readonly starting = new Map<string, Promise<AgentProcess>>()
  private readonly outcomes = new Map<string, AgentOutcome>()
  private closed = false

  constructor(private readonly options: AgentPoolOptions) {}

  /** The live process for this agent and folder, started if there is none. */
  acquire(agentId: string, workspaceDir: string): Promise<AgentProcess> {
    if (this.closed) return Promise.reject(new Error('ACP agents are shutting down'))
    const key = poolKey(agentId, workspaceDir)
    const live = this.running.get(key)
    if (live?.alive) return Promise.resolve(live)
    let start = this.starting.get(key)
    if (!start) {
      start = this.start(agentId, workspaceDir).finally(() => this.starting.delete(key))
      this.starting.set(key, start)
    }
    return start
  }

  processesOf(agentId: string): AgentProcess[] {
    return [...this.running.values()].filter((p) => p.agentId === agentId)
  }

  all(): AgentProcess[] {
    return [...this.running.values()]
  }

  outcomeOf(agentId: string): AgentOutcome {
    return this.outcomes.get(agentId) ?? { stderrTail: [] }
  }

  /** Stops every process of the agent (its whole tree); turns in flight fail. */
  async stopAgent(agentId: string): Promise<void> {
    await Promise.all(
      [...this.starting.entries()]
        .filter(([key]) => key.startsWith(`${agentId}\0`))
        .map(([, start]) => start.then((p) => p.stop()).catch(() => undefined))
    )
    await Promise.all(this.processesOf(agentId).map((p) => p.stop()))
  }

  /** Stops everything and refuses new starts: nothing of ours keeps running at quit. */
  async dispose(): Promise<void> {
    this.closed = true
    await Promise.all([...this.starting.values()].map((s) => s.then((p) => p.stop()).catch(() => undefined)))
    await Promise.all([...this.running.values()].map((p) => p.stop()))
  }

  private async start(agentId: string, workspaceDir: string): Promise<AgentProcess> {
    const key = poolKey(agentId, workspaceDir)
    try {
      const spec = await this.options.launchSpec(agentId, workspaceDir)
      const process = await AgentProcess.start({
        agentId,
        workspaceDir,
        spec,
        clientInfo: this.options.clientInfo,
        services: this.options.services,
        groups: this.options.groups,
        initializeTimeoutMs: this.options.initializeTimeoutMs,
        onExit: (ended, exit) => this.ended(key, ended, exit)
      })
      if (this.closed) {
        await process.stop()
        throw new Error('ACP agents are shutting down')
      }
      this.running.set(key, process)
      this.outcomes.set(agentId, { stderrTail: process.child.stderrTail() })
      this.options.onChange(agentId)
      return process
    } catch (error) {
      this.outcomes.set(agentId, {
        lastError: String((error as Error)?.message ?? error),
        stderrTail: this.outcomeOf(agentId).stderrTail
      })
      this.options.onChange(agentId)
      throw error
    }
  }

  private ended(key: string, process: AgentProcess, exit: ExitInfo): void {
    if (this.running.get(key) === process) this.running.delete(key)
    const stderrTail = process.child.stderrTail()
    const crashed = !process.wasStopped && (exit.code !== 0 || exit.signal !== null)
    this.outcomes.set(process.agentId, {
      ...(crashed ? { lastError: exitMessage(process.agentId, exit, stderrTail) } : {}),
      stderrTail
    })
    this.options.onChange(process.agentId)
  }
}

function poolKey(agentId: string, workspaceDir: string): string {
  return `${agentId}\0${workspaceDir}`
}
