import { spawn, type ChildProcess } from 'node:child_process'
import type { Readable, Writable } from 'node:stream'
import { execa } from 'execa'
import { dieWithHost } from '../hygiene/dieWithHost'
import { HOST_MARK_VARIABLE, type ProcessGroupRegistry } from '../hygiene/processGroups'
import { killProcesses, listDescendants } from '../mcpPresenter/killTree'
import { describeSpawnError } from '../../platform/systemErrorWords'

export const STDERR_TAIL_LINES = 40
const KILL_GRACE_MS = 2_000

export interface LaunchSpec {
  command: string
  args: string[]
  env: Record<string, string>
  cwd: string
}

export interface ExitInfo {
  code: number | null
  signal: NodeJS.Signals | null
}

/** A running agent process: its stdio, the tail of its stderr, and a way to end its whole tree. */
export interface AgentChild {
  readonly pid: number
  readonly stdin: Writable
  readonly stdout: Readable
  readonly exited: Promise<ExitInfo>
  hasExited(): boolean
  stderrTail(): string[]
  /** Ends the process and everything it started (its group and any strays found by parent pid). */
  kill(graceMs?: number): Promise<void>
}

export interface SpawnOptions {
  /** Records the process group so the next start reaps it if this host crashes. */
  groups?: ProcessGroupRegistry
  onStderrLine?: (line: string) => void
  tailLines?: number
}

export class AgentLaunchError extends Error {
  constructor(
    readonly command: string,
    readonly cause: unknown,
    cwd?: string
  ) {
    super(launchMessage(command, cause, cwd))
    this.name = 'AgentLaunchError'
  }
}

function launchMessage(command: string, cause: unknown, cwd?: string): string {
  return (
    describeSpawnError(command, cause, { cwd }) ??
    `${command} could not be started: ${String((cause as Error)?.message ?? cause)}`
  )
}

/**
 * Starts an agent in its own process group (so a stop reaches `npx`'s grandchildren too), tied
 * to the host's life where `setpriv` exists, recorded with the host's process groups and
 * marked with the host's run mark, so nothing survives a crashed host for long.
 */
export async function spawnAgent(spec: LaunchSpec, options: SpawnOptions = {}): Promise<AgentChild> {
  const groups = options.groups
  const env = { ...spec.env, ...(groups ? { [HOST_MARK_VARIABLE]: groups.mark } : {}) }
  const program = await dieWithHost({ file: spec.command, args: spec.args })
  const child = spawn(program.file, program.args, {
    cwd: spec.cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
    windowsHide: true
  })
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve)
    child.once('error', (error) => reject(new AgentLaunchError(spec.command, error, spec.cwd)))
  })
  return wrapChild(child, options)
}

function wrapChild(child: ChildProcess, options: SpawnOptions): AgentChild {
  const pid = child.pid!
  const groupId = process.platform !== 'win32' ? pid : undefined
  if (groupId) void options.groups?.record(groupId)
  const tail: string[] = []
  const limit = options.tailLines ?? STDERR_TAIL_LINES
  let partial = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split(/\r?\n/)
    partial = lines.pop() ?? ''
    for (const line of lines) addLine(line)
  })
  const addLine = (line: string): void => {
    if (!line.trim()) return
    tail.push(line)
    if (tail.length > limit) tail.splice(0, tail.length - limit)
    options.onStderrLine?.(line)
  }
  let done = false
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once('exit', (code, signal) => {
      done = true
      if (partial) addLine(partial)
      partial = ''
      // Whatever the agent left running in its group goes with it.
      if (groupId) signalGroup(groupId, 'SIGKILL')
      if (groupId) void options.groups?.release(groupId)
      resolve({ code, signal })
    })
  })
  // A write after the agent died must not crash the host.
  child.stdin!.on('error', () => {})
  return {
    pid,
    stdin: child.stdin!,
    stdout: child.stdout!,
    exited,
    hasExited: () => done,
    stderrTail: () => [...tail],
    kill: (graceMs = KILL_GRACE_MS) => killAgentTree(pid, exited, () => done, graceMs)
  }
}

async function killAgentTree(
  pid: number,
  exited: Promise<ExitInfo>,
  isDone: () => boolean,
  graceMs: number
): Promise<void> {
  if (process.platform === 'win32') {
    await execa('taskkill', ['/pid', String(pid), '/T', '/F'], { reject: false })
    await exited
    return
  }
  // Read the tree first: a descendant that left the group (setsid) is found by parent pid.
  const strays = await listDescendants(pid)
  if (!isDone()) signalGroup(pid, 'SIGTERM')
  const inTime = await Promise.race([
    exited.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), graceMs).unref())
  ])
  if (!inTime) signalGroup(pid, 'SIGKILL')
  await killProcesses(strays, inTime ? graceMs : 0)
  await exited
}

function signalGroup(groupId: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-groupId, signal)
  } catch {
    // Gone already.
  }
}
