import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { spawn, type ChildProcess } from 'node:child_process'
import { execa } from 'execa'
import { userShell } from '../../sandbox/userShell'
import { SpillLog } from './spillLog'
import type { Sandbox, SandboxPlan, UndoneEntry } from '../../sandbox'
import { dieWithHost } from '../../hygiene/dieWithHost'
import { HOST_MARK_VARIABLE, type ProcessGroupRegistry } from '../../hygiene/processGroups'
import { childEnvironment } from '../../permission/childEnvironment'

export type ProcessStatus = 'running' | 'done' | 'error' | 'killed'

export interface ProcessInfo {
  processId: string
  command: string
  cwd: string
  status: ProcessStatus
  pid: number | null
  exitCode: number | null
  timedOut: boolean
  createdAt: number
  outputLength: number
  logFile: string | null
  /** True when the command runs inside the OS sandbox. */
  sandboxed: boolean
  /** Set when a sandbox was asked for but none is available, so the command ran on the host. */
  sandboxUnavailable?: string
  /** Protected entries the sandboxed command created, moved out of the workspace once it exited. */
  protectedUndone?: UndoneEntry[]
  /** Why a sandboxed command got less of the workspace than its plan (a huge tree, a linked protected entry). */
  sandboxNotice?: string
}

/** How a spawned shell ended: its exit code, or the signal that ended it, or why it never started. */
interface ShellEnd {
  exitCode: number | null
  signal: NodeJS.Signals | null
  spawnError?: Error
}

/** A spawned shell and its end. Plain `child_process` (execa cost ~2.5 ms per command on the hot path). */
interface ShellChild {
  process: ChildProcess
  ended: Promise<ShellEnd>
}

interface ManagedProcess extends ProcessInfo {
  sessionId: string
  child: ShellChild
  /** The whole output while small; only the tail once it has been spilled to `logFile`. */
  buffer: string
  stdinOpen: boolean
  exited: Promise<void>
  spill: SpillLog | null
  timer?: NodeJS.Timeout
  onChange?: (info: ProcessInfo) => void
}

export interface StartOptions {
  sessionId: string
  command: string
  cwd: string
  /** Where the full log goes once output passes the spill threshold. */
  logDir: string
  timeoutMs?: number
  /** Background processes keep stdin open for `process write`; foreground ones get EOF at once. */
  keepStdin: boolean
  /**
   * Run inside the OS sandbox under this plan (commands nobody approved). Undefined: run on the
   * host, as approved. Without a sandbox on this machine the command runs on the host and
   * `sandboxUnavailable` says why.
   */
  sandbox?: SandboxPlan
  /**
   * On the host, wrap the shell so it dies with the host (`setpriv --pdeathsig`; default true).
   * It costs an exec per command (2-5 ms here), so exec skips it for foreground commands: the
   * host waits for those, and after a crash the reaper kills what is left at the next start.
   */
  dieWithHost?: boolean
  onChange?: (info: ProcessInfo) => void
}

interface Spawned {
  child: ShellChild
  sandboxed: boolean
  sandboxUnavailable?: string
  /** Runs once the child has exited (the sandbox removes what it left on the host). */
  cleanup: () => void
  /** Runs once the child has exited, before `cleanup`: protected entries it created are moved away. */
  undoProtected?: () => UndoneEntry[]
  sandboxNotice?: string
}

export const SPILL_THRESHOLD = 10_000
export const TAIL_CHARS = 12_000
const KILL_GRACE_MS = 2_000
/**
 * How often a writable sandboxed command that is still running is checked for protected entries
 * it created: the user may run git in the workspace long before a dev server exits.
 */
const PROTECTED_CHECK_MS = 2_000

/**
 * Child processes started by `exec`, per session. Each runs in its own process group so a kill
 * takes its whole tree; output is kept in memory while small and streamed to a log file in the
 * session's data folder once large. `killSessionProcesses` runs when a session is purged.
 */
export class BackgroundProcessManager {
  private readonly bySession = new Map<string, Map<string, ManagedProcess>>()

  private toldNoSandbox = false

  constructor(
    private readonly options: {
      shell?: string
      killGraceMs?: number
      /**
       * Where commands' variables come from (the app's env with the login shell's PATH). Only the
       * allowlisted ones reach a command (`childEnvironment`), on the host as in the sandbox.
       */
      baseEnv?: () => Promise<NodeJS.ProcessEnv>
      /** Names the user allowed in Settings, passed besides the built-in allowlist. */
      allowedVariables?: () => readonly string[]
      /** The OS sandbox for `StartOptions.sandbox` plans. */
      sandbox?: Sandbox
      /** Where process groups are recorded, so the next start can reap what a crashed host left. */
      groups?: ProcessGroupRegistry
      /** Largest size of a spilled log file (the tail is kept). */
      spillCapBytes?: number
      log?: (message: string) => void
    } = {}
  ) {}

  async start(options: StartOptions): Promise<ProcessInfo> {
    const source = await (this.options.baseEnv?.() ?? Promise.resolve(process.env)).catch(() => process.env)
    const environment = childEnvironment(source, this.options.allowedVariables?.() ?? [])
    const { child, sandboxed, sandboxUnavailable, cleanup, undoProtected, sandboxNotice } = await this.spawn(
      options,
      environment
    )
    const managed: ManagedProcess = {
      // randomUUID draws from a pool; randomBytes, right after a spawn, costs ~0.3 ms here.
      processId: `proc_${randomUUID().replaceAll('-', '').slice(0, 12)}`,
      sessionId: options.sessionId,
      command: options.command,
      cwd: options.cwd,
      status: 'running',
      pid: child.process.pid ?? null,
      exitCode: null,
      timedOut: false,
      createdAt: Date.now(),
      outputLength: 0,
      logFile: null,
      sandboxed,
      ...(sandboxUnavailable ? { sandboxUnavailable } : {}),
      ...(sandboxNotice ? { sandboxNotice } : {}),
      child,
      buffer: '',
      stdinOpen: options.keepStdin,
      exited: Promise.resolve(),
      spill: null,
      onChange: options.onChange
    }
    const append = (chunk: string): void => this.append(managed, chunk, options.logDir)
    child.process.stdout?.setEncoding('utf8').on('data', append)
    child.process.stderr?.setEncoding('utf8').on('data', append)
    child.process.stdin?.on('error', () => {
      managed.stdinOpen = false
    })
    const groupId = process.platform !== 'win32' ? child.process.pid : undefined
    if (groupId) void this.options.groups?.record(groupId)
    const undo = (): void => {
      if (!undoProtected) return
      const undone = undoneOrFailure(undoProtected)
      if (undone.length) managed.protectedUndone = [...(managed.protectedUndone ?? []), ...undone]
    }
    const watch = undoProtected ? setInterval(undo, PROTECTED_CHECK_MS) : undefined
    watch?.unref()
    managed.exited = this.watchExit(managed, append).finally(() => {
      clearInterval(watch)
      undo()
      cleanup()
      if (groupId) void this.options.groups?.release(groupId)
    })
    if (options.timeoutMs && options.timeoutMs > 0) {
      managed.timer = setTimeout(() => {
        managed.timedOut = true
        void this.killProcess(managed)
      }, options.timeoutMs)
      managed.timer.unref()
    }
    const sessionMap = this.bySession.get(options.sessionId) ?? new Map<string, ManagedProcess>()
    sessionMap.set(managed.processId, managed)
    this.bySession.set(options.sessionId, sessionMap)
    managed.onChange?.(publicInfo(managed))
    return publicInfo(managed)
  }

  /**
   * The user's shell in its own process group (so a kill reaches the whole tree): inside the
   * sandbox when the plan asks for it and one exists, else on the host, tied to the host's life.
   */
  private async spawn(options: StartOptions, baseEnv: NodeJS.ProcessEnv): Promise<Spawned> {
    const shell = userShell(options.command, this.options.shell)
    const groups = this.options.groups
    const env = {
      ...baseEnv,
      PAGER: 'cat',
      GIT_PAGER: 'cat',
      ...(groups ? { [HOST_MARK_VARIABLE]: groups.mark } : {})
    }
    let sandboxUnavailable: string | undefined
    if (options.sandbox) {
      const sandbox = this.options.sandbox
      const status = sandbox ? await sandbox.status() : { available: false, reason: 'no sandbox configured' }
      if (sandbox && status.available) {
        const wrapped = await sandbox.wrap(shell, options.sandbox, {
          cwd: options.cwd,
          env,
          quarantineDir: options.logDir
        })
        try {
          const child = this.execShell(wrapped, options, wrapped.env)
          return {
            child,
            sandboxed: true,
            cleanup: wrapped.cleanup,
            undoProtected: wrapped.undoProtected,
            sandboxNotice: wrapped.notice
          }
        } catch (error) {
          wrapped.cleanup()
          throw error
        }
      }
      sandboxUnavailable = status.reason ?? 'no sandbox available'
      if (!this.toldNoSandbox)
        this.options.log?.(
          `No sandbox (${sandboxUnavailable}): unasked commands run on the host, judged by the classifier alone`
        )
      this.toldNoSandbox = true
    }
    const host = options.dieWithHost === false ? shell : await dieWithHost(shell)
    const child = this.execShell(host, options, env)
    return { child, sandboxed: false, sandboxUnavailable, cleanup: () => {} }
  }

  private execShell(
    command: { file: string; args: string[]; fdInputs?: Uint8Array[] },
    options: StartOptions,
    env: NodeJS.ProcessEnv
  ): ShellChild {
    const fdInputs = command.fdInputs ?? []
    const child = spawn(command.file, command.args, {
      cwd: options.cwd,
      // fds 3, 4, … carry what the sandbox reads at start (bwrap's seccomp filter).
      stdio: [options.keepStdin ? 'pipe' : 'ignore', 'pipe', 'pipe', ...fdInputs.map(() => 'pipe' as const)],
      detached: process.platform !== 'win32',
      windowsHide: true,
      // The environment given is complete: nothing of this process's may leak in.
      env
    })
    fdInputs.forEach((bytes, i) => {
      const pipe = child.stdio[3 + i]
      if (!pipe || !('end' in pipe)) return
      // A child that exits before reading its input closes the pipe: not our failure.
      pipe.on('error', () => {})
      pipe.end(Buffer.from(bytes))
    })
    const ended = new Promise<ShellEnd>((resolve) => {
      child.once('error', (error) => {
        // A spawn failure has no pid and no 'close' to wait for; a later error (a kill) does.
        if (child.pid === undefined) resolve({ exitCode: null, signal: null, spawnError: error })
      })
      child.once('close', (exitCode, signal) => resolve({ exitCode, signal }))
    })
    return { process: child, ended }
  }

  /** Settles status and exit code when the child ends; a spawn failure is told in the output. */
  private watchExit(managed: ManagedProcess, append: (chunk: string) => void): Promise<void> {
    return managed.child.ended.then((end) => {
      if (managed.timer) clearTimeout(managed.timer)
      managed.exitCode = end.exitCode
      if (managed.status !== 'killed') managed.status = end.exitCode === 0 ? 'done' : 'error'
      if (end.spawnError && managed.status === 'error') append(`\n${spawnFailure(end.spawnError)}\n`)
      managed.stdinOpen = false
      managed.onChange?.(publicInfo(managed))
    })
  }

  /** Resolves 'exited' when the process ends, 'yielded' after `yieldMs`, 'aborted' on the signal. */
  async waitForExitOrYield(
    sessionId: string,
    processId: string,
    yieldMs: number,
    signal?: AbortSignal
  ): Promise<'exited' | 'yielded' | 'aborted'> {
    const managed = this.require(sessionId, processId)
    if (signal?.aborted) return 'aborted'
    let timer: NodeJS.Timeout | undefined
    let onAbort: (() => void) | undefined
    const outcome = await Promise.race([
      managed.exited.then(() => 'exited' as const),
      new Promise<'yielded'>((resolve) => {
        timer = setTimeout(() => resolve('yielded'), yieldMs)
      }),
      new Promise<'aborted'>((resolve) => {
        onAbort = () => resolve('aborted')
        signal?.addEventListener('abort', onAbort, { once: true })
      })
    ])
    if (timer) clearTimeout(timer)
    if (onAbort) signal?.removeEventListener('abort', onAbort)
    return outcome
  }

  list(sessionId: string): ProcessInfo[] {
    return [...(this.bySession.get(sessionId)?.values() ?? [])].map(publicInfo)
  }

  info(sessionId: string, processId: string): ProcessInfo {
    return publicInfo(this.require(sessionId, processId))
  }

  /** The last `chars` characters of output. */
  tail(sessionId: string, processId: string, chars: number): string {
    const managed = this.require(sessionId, processId)
    return managed.buffer.slice(-chars)
  }

  /** A window of the whole output, read from the log file once it has been spilled. */
  log(
    sessionId: string,
    processId: string,
    offset: number,
    limit: number
  ): { output: string; totalLength: number } {
    const managed = this.require(sessionId, processId)
    if (managed.logFile) {
      const full = readFileSync(managed.logFile, 'utf8')
      return { output: full.slice(offset, offset + limit), totalLength: full.length }
    }
    return { output: managed.buffer.slice(offset, offset + limit), totalLength: managed.outputLength }
  }

  write(sessionId: string, processId: string, data: string, eof: boolean): void {
    const managed = this.require(sessionId, processId)
    if (managed.status !== 'running')
      throw new ProcessError('not_running', `Process ${processId} is not running`)
    const stdin = managed.child.process.stdin
    if (!stdin || !managed.stdinOpen) {
      throw new ProcessError(
        'stdin_closed',
        `Process ${processId} has no open stdin (only background: true processes keep it)`
      )
    }
    if (data) stdin.write(data)
    if (eof) {
      stdin.end()
      managed.stdinOpen = false
    }
  }

  async kill(sessionId: string, processId: string): Promise<ProcessInfo> {
    const managed = this.require(sessionId, processId)
    await this.killProcess(managed)
    return publicInfo(managed)
  }

  clear(sessionId: string, processId: string): void {
    const managed = this.require(sessionId, processId)
    managed.buffer = ''
    managed.outputLength = 0
    managed.spill?.clear()
  }

  async remove(sessionId: string, processId: string): Promise<void> {
    const managed = this.require(sessionId, processId)
    await this.killProcess(managed)
    if (managed.logFile) rmSync(managed.logFile, { force: true })
    this.bySession.get(sessionId)?.delete(processId)
  }

  /** Forgets a finished process but keeps its log file (used after a foreground run). */
  forget(sessionId: string, processId: string): void {
    this.bySession.get(sessionId)?.delete(processId)
  }

  /** Kills every process of a session (session purge) and forgets them. */
  async killSessionProcesses(sessionId: string): Promise<void> {
    const processes = [...(this.bySession.get(sessionId)?.values() ?? [])]
    // Forgotten first: the session is gone, so nothing may list its processes while they die.
    this.bySession.delete(sessionId)
    await Promise.all(processes.map((p) => this.killProcess(p)))
  }

  async killAll(): Promise<void> {
    await Promise.all([...this.bySession.keys()].map((id) => this.killSessionProcesses(id)))
  }

  private require(sessionId: string, processId: string): ManagedProcess {
    const managed = this.bySession.get(sessionId)?.get(processId)
    if (!managed) throw new ProcessError('not_found', `No process ${processId} in this session`)
    return managed
  }

  private append(managed: ManagedProcess, chunk: string, logDir: string): void {
    managed.outputLength += chunk.length
    if (!managed.spill && managed.outputLength > SPILL_THRESHOLD) {
      try {
        mkdirSync(logDir, { recursive: true })
        const spill = new SpillLog(
          join(logDir, `bgexec_${managed.processId}.log`),
          this.options.spillCapBytes
        )
        spill.open(managed.buffer)
        managed.spill = spill
        managed.logFile = spill.file
      } catch {
        // Disk trouble: keep the tail in memory rather than fail the command.
      }
    }
    if (managed.spill) {
      try {
        managed.spill.append(chunk)
      } catch {
        // Same: the tail below still reaches the model.
      }
    }
    managed.buffer += chunk
    if (managed.logFile && managed.buffer.length > TAIL_CHARS * 2) {
      managed.buffer = managed.buffer.slice(-TAIL_CHARS)
    }
  }

  private async killProcess(managed: ManagedProcess): Promise<void> {
    if (managed.status !== 'running') return
    managed.status = 'killed'
    const pid = managed.child.process.pid
    if (pid) killTree(pid, 'SIGTERM')
    const grace = this.options.killGraceMs ?? KILL_GRACE_MS
    const exitedInTime = await Promise.race([
      managed.exited.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), grace).unref())
    ])
    if (!exitedInTime && pid) killTree(pid, 'SIGKILL')
    await Promise.race([managed.exited, new Promise((resolve) => setTimeout(resolve, 500).unref())])
  }
}

export class ProcessError extends Error {
  constructor(
    readonly code: string,
    message: string
  ) {
    super(message)
    this.name = 'ProcessError'
  }
}

/** Kills the process group (POSIX) or the whole tree via taskkill (Windows). */
function killTree(pid: number, signal: NodeJS.Signals): void {
  try {
    if (process.platform === 'win32') {
      void execa('taskkill', ['/pid', String(pid), '/T', '/F'], { reject: false })
    } else {
      process.kill(-pid, signal)
    }
  } catch {
    try {
      process.kill(pid, signal)
    } catch {
      // Already gone.
    }
  }
}

function publicInfo(managed: ManagedProcess): ProcessInfo {
  return {
    processId: managed.processId,
    command: managed.command,
    cwd: managed.cwd,
    status: managed.status,
    pid: managed.pid,
    exitCode: managed.exitCode,
    timedOut: managed.timedOut,
    createdAt: managed.createdAt,
    outputLength: managed.outputLength,
    logFile: managed.logFile,
    sandboxed: managed.sandboxed,
    ...(managed.sandboxUnavailable ? { sandboxUnavailable: managed.sandboxUnavailable } : {}),
    ...(managed.protectedUndone?.length ? { protectedUndone: managed.protectedUndone } : {}),
    ...(managed.sandboxNotice ? { sandboxNotice: managed.sandboxNotice } : {})
  }
}

/** Why a shell never started, e.g. "The command could not start: spawn /bin/zsh ENOENT". */
function spawnFailure(error: Error): string {
  return `The command could not start: ${error.message}`
}

/** What the sandbox undid; a failure to look is told as such rather than lost. */
function undoneOrFailure(undo: () => UndoneEntry[]): UndoneEntry[] {
  try {
    return undo()
  } catch (error) {
    return [{ path: `(could not check for new protected entries: ${String(error)})`, movedTo: null }]
  }
}
