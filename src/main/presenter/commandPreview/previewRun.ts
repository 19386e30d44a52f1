import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { CommandPreview, PreviewLimits, PreviewRefusal } from '@shared/types/commandPreview'
import type { AppDataBoundary } from '../permission/boundary'
import { isInside } from '../permission/paths'
import { bwrapArgs } from '../sandbox/bwrap'
import { sandboxEnvironment } from '../sandbox'
import { buildProfile, type SandboxProfile } from '../sandbox/profile'
import { ProtectedGuard } from '../sandbox/protectedGuard'
import { socketGuardFilter } from '../sandbox/seccomp'
import { describeChanges, plannedChanges, type PlannedChange } from './changes'
import { copyTree, walkTree, TreeTooLargeError, type Tree } from './workspaceTree'

export const DEFAULT_PREVIEW_LIMITS: PreviewLimits = {
  timeMs: 30_000,
  maxBytes: 200 * 1024 * 1024,
  maxFiles: 20_000,
  outputChars: 16_000
}

/** The workspace walk that fingerprints it may see this many times the copy's entry limit (`.git` and other skipped entries count). */
const FINGERPRINT_FACTOR = 3

export interface PreviewRunInput {
  command: string
  /** Real paths: the working folder lies in the workspace. */
  cwd: string
  workspaceDir: string
  /** The allowlisted environment a command gets (`childEnvironment`). */
  env: NodeJS.ProcessEnv
  shell: { file: string; args: string[] }
  home: string
  appData?: AppDataBoundary
  /** The bwrap program, and whether it loads the socket filter. */
  bwrap: string
  seccomp: boolean
  /** A folder of its own for this preview: the copy and the scratch folders go there. */
  scratchDir: string
  limits: PreviewLimits
  signal?: AbortSignal
}

/** A finished preview: what the card shows, and what approving needs to apply it. */
export interface PreviewRun {
  preview: CommandPreview
  /** The workspace as it was when the preview started (every entry, with its status-change time). */
  fingerprint: Tree
  /** Left out of the fingerprint (the app's data folder in the workspace): the check after must skip the same. */
  fingerprintSkip: string[]
  copyDir: string
  changes: PlannedChange[]
}

/**
 * Runs `command` in bubblewrap on a copy of the workspace: the copy is bound at the workspace's
 * own path, writable except the protected entries (mounted read-only from the real workspace,
 * as for any sandboxed run); no network; home and /tmp are scratch folders, so what it wrote
 * there is seen and reported as an outside write. The real workspace is never written.
 */
export async function runPreview(input: PreviewRunInput): Promise<PreviewRun | CommandPreview> {
  const { limits } = input
  const unavailable = (reason: 'workspace_too_large' | 'not_supported', detail: string): CommandPreview => ({
    status: 'unavailable',
    reason,
    detail,
    limits
  })
  const ws = input.workspaceDir
  // The copy stands in for the workspace only: a command run elsewhere would not be previewed faithfully.
  if (!isInside(input.cwd, ws))
    return unavailable('not_supported', `the working folder ${input.cwd} is outside the workspace`)
  const guard = ProtectedGuard.before(ws, input.home)
  const profile = buildProfile(
    { workspaceDir: ws, writableWorkspace: true },
    {
      nestedProtected: guard,
      home: input.home,
      appData: input.appData,
      pathEnv: input.env.PATH,
      privateDirs: ['/tmp', '/run']
    }
  )
  if (!profile.writableWorkspace)
    return unavailable('not_supported', 'a protected entry is a link, or there are too many to mount')
  if (guard.readOnlyBeyondCap)
    return unavailable('workspace_too_large', `${guard.readOnlyBeyondCap} folders beyond the scan's limit`)
  // Protected entries are mounted from the real workspace (read-only), masks and stubs are
  // bwrap's mount points: none of them is copied or compared.
  // Missing protected entries are not stubbed as in a sandboxed run: the copy is thrown away,
  // and what the command would create there (a new `.envrc`) is shown and flagged on the card
  // like any change; stubs would also make `git clean -x` fail on them.
  const mounted: SandboxProfile = { ...profile, protectedMissing: [] }
  const skip = mountedPaths(mounted)
  // The app's data folder (a workspace that holds it) changes on its own and is never shown.
  const dataInside =
    profile.dataDir && isInside(profile.dataDir, ws)
      ? [relative(ws, profile.dataDir).split('\\').join('/')]
      : []
  let fingerprint: Tree
  try {
    fingerprint = walkTree(ws, {
      skip: new Set(dataInside),
      limits: { files: limits.maxFiles * FINGERPRINT_FACTOR, bytes: Infinity }
    })
  } catch (error) {
    if (error instanceof TreeTooLargeError) return unavailable('workspace_too_large', error.message)
    throw error
  }
  const toCopy = new Map([...fingerprint].filter(([path]) => !isUnder(path, skip)))
  let files = 0
  let bytes = 0
  for (const entry of toCopy.values()) {
    files++
    if (entry.type === 'file') bytes += entry.size
  }
  if (files > limits.maxFiles || bytes > limits.maxBytes)
    return unavailable('workspace_too_large', `${files} entries, ${bytes} bytes`)
  const copyDir = join(input.scratchDir, 'workspace')
  const copied = copyTree(ws, copyDir, toCopy)
  const scratch = {
    home: join(input.scratchDir, 'home'),
    tmp: join(input.scratchDir, 'tmp'),
    run: join(input.scratchDir, 'run')
  }
  mkdirSync(scratch.home, { mode: 0o700 })
  mkdirSync(scratch.tmp, { mode: 0o700 })
  mkdirSync(scratch.run, { mode: 0o700 })
  const started = Date.now()
  const args = bwrapArgs(mounted, countingLeftovers(input.shell), input.cwd, {
    seccompFd: input.seccomp ? 3 : undefined,
    workspaceSource: copyDir,
    scratch: {
      ...(profile.home ? { [profile.home]: scratch.home } : {}),
      '/tmp': scratch.tmp,
      '/run': scratch.run
    }
  })
  const env = sandboxEnvironment(input.env, profile.home ?? input.home, true)
  const filters = input.seccomp ? [socketGuardFilter()] : []
  // Writes are checked while it runs: past twice the size limit (copy, home, /tmp) it is stopped.
  const overSize = (): boolean => {
    try {
      const bytes = { files: limits.maxFiles * 2, bytes: limits.maxBytes * 2 }
      for (const dir of [copyDir, scratch.home, scratch.tmp]) walkTree(dir, { limits: bytes })
      return false
    } catch (error) {
      return error instanceof TreeTooLargeError
    }
  }
  const outcome = await spawnBounded(input.bwrap, args, env, filters, limits, input.signal, overSize)
  const after = walkTree(copyDir, { skip: new Set(skip), repair: true })
  const changes = plannedChanges(ws, copyDir, fingerprint, copiedWithout(copied, skip), after)
  const described = describeChanges(ws, copyDir, changes)
  const refused = [
    ...refusalsInOutput(`${outcome.stdout}\n${outcome.stderr}`),
    ...outsideWrites(scratch.home, profile.home, mountPoints(mounted, profile.home)),
    ...outsideWrites(scratch.tmp, '/tmp', mountPoints(mounted, '/tmp'))
  ]
  if (outcome.stderr.startsWith('bwrap: '))
    return unavailable('not_supported', outcome.stderr.split('\n')[0] ?? 'bwrap failed')
  const leftRunning = leftoverCount(join(scratch.run, LEFTOVER_FILE))
  const runReason = outcome.sizeExceeded
    ? 'size_limit'
    : outcome.timedOut
      ? 'timed_out'
      : leftRunning
        ? 'left_running'
        : refused.length
          ? 'refused'
          : undefined
  return {
    fingerprint,
    fingerprintSkip: dataInside,
    copyDir,
    changes,
    preview: {
      status: 'done',
      exitCode: outcome.exitCode,
      timedOut: outcome.timedOut,
      ...(outcome.sizeExceeded ? { sizeExceeded: true } : {}),
      ...(leftRunning ? { leftRunning } : {}),
      durationMs: Date.now() - started,
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      outputDropped: outcome.dropped,
      files: described.files,
      filesOmitted: described.omitted,
      refused,
      limits,
      onApprove: runReason ? 'run' : 'apply',
      ...(runReason ? { runReason } : {})
    }
  }
}

/**
 * Processes and threads the preview may add. The kernel counts the user's processes system-wide
 * (a desktop runs thousands of threads), so the cap is what the user runs now plus this many.
 */
const EXTRA_PROCESSES = 2048

/** Processes and threads of this user right now (Linux: /proc). */
function userTaskCount(): number {
  const uid = process.getuid?.()
  let count = 0
  try {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue
      try {
        if (statSync(`/proc/${name}`).uid === uid) count += readdirSync(`/proc/${name}/task`).length
      } catch {
        // ended meanwhile
      }
    }
  } catch {
    return 0
  }
  return count
}

/** Where the wrapper inside writes how many processes the command left running (in the preview's own /run). */
const LEFTOVER_FILE = 'deepchat-preview-leftovers'

/**
 * The command's shell inside a small POSIX wrapper that caps its processes and, once the command has exited, counts the
 * processes it left behind in the sandbox's process namespace (all but bwrap's reaper, pid 1, and
 * the wrapper). They die with the preview; on the host they would keep running (a server started
 * with `&`), so such a preview is not applied.
 */
function countingLeftovers(shell: { file: string; args: string[] }): { file: string; args: string[] } {
  const maxProcesses = userTaskCount() + EXTRA_PROCESSES
  const script = [
    // The model's line runs here before anyone approved it: a fork bomb must not take the machine.
    `ulimit -p ${maxProcesses} 2>/dev/null || ulimit -u ${maxProcesses} 2>/dev/null`,
    '"$@"',
    'rc=$?',
    'n=0',
    'for p in /proc/[0-9]*; do case "${p#/proc/}" in 1|$$) ;; *) n=$((n+1)) ;; esac; done',
    `echo "$n" > /run/${LEFTOVER_FILE}`,
    'exit "$rc"'
  ].join('\n')
  return { file: '/bin/sh', args: ['-c', script, 'preview', shell.file, ...shell.args] }
}

function leftoverCount(file: string): number {
  try {
    return Number.parseInt(readFileSync(file, 'utf8'), 10) || 0
  } catch {
    return 0
  }
}

/** Workspace-relative paths bwrap mounts over (protected entries, stubs, masks). */
function mountedPaths(profile: SandboxProfile): string[] {
  const mounts = [
    ...profile.protectedExisting,
    ...profile.protectedMissing,
    ...profile.maskedDirs,
    ...profile.maskedFiles,
    ...(profile.dataDir ? [profile.dataDir] : [])
  ]
  return mounts
    .filter((path) => path !== profile.workspaceDir && isInside(path, profile.workspaceDir))
    .map((path) => relative(profile.workspaceDir, path).split('\\').join('/'))
}

function isUnder(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => path === root || path.startsWith(`${root}/`))
}

function copiedWithout(tree: Tree, skip: readonly string[]): Tree {
  return new Map([...tree].filter(([path]) => !isUnder(path, skip)))
}

/** Paths bwrap creates as mount points inside a scratch folder shown at `shownAt`. */
function mountPoints(profile: SandboxProfile, shownAt: string | null): Set<string> {
  const points = new Set<string>()
  if (!shownAt) return points
  const targets = [
    ...profile.toolchains.map((t) => t.target),
    ...profile.maskedDirs,
    ...profile.maskedFiles,
    profile.workspaceDir,
    ...(profile.dataDir ? [profile.dataDir] : [])
  ]
  for (const target of targets)
    if (target !== shownAt && isInside(target, shownAt)) points.add(relative(shownAt, target))
  return points
}

/** Files and links a command left in a scratch folder standing in for home or /tmp. */
function outsideWrites(scratch: string, shownAt: string | null, mountPoints: Set<string>): PreviewRefusal[] {
  if (!shownAt) return []
  const found: PreviewRefusal[] = []
  for (const [path, entry] of walkTree(scratch, { skip: mountPoints })) {
    if (entry.type === 'dir') continue
    found.push({ kind: 'outside_write', detail: join(shownAt, path) })
    if (found.length >= 20) break
  }
  return found
}

/*
 * How programs say the network or a write was refused. The sandbox refuses every connection
 * and every write outside the workspace; these lines only name what was tried, so the card can
 * show it. A silent failure is not seen here, which is why a preview's changes are applied only
 * when nothing was refused and approving otherwise runs the command for real.
 */
const NETWORK_PATTERNS = [
  /network is unreachable/i,
  /\bENETUNREACH\b/,
  /\bEAI_AGAIN\b/,
  /could not resolve host/i,
  /temporary failure in name resolution/i,
  /name or service not known/i,
  /\bgetaddrinfo\b/i,
  /connection refused/i,
  /\bECONNREFUSED\b/,
  /failed to connect/i,
  /could not connect/i,
  /unable to access '?https?:/i,
  /\bENOTFOUND\b/
]
const WRITE_PATTERNS = [/read-only file system/i, /\bEROFS\b/]

export function refusalsInOutput(output: string): PreviewRefusal[] {
  const found: PreviewRefusal[] = []
  for (const line of output.split('\n')) {
    const kind = NETWORK_PATTERNS.some((p) => p.test(line))
      ? 'network'
      : WRITE_PATTERNS.some((p) => p.test(line))
        ? 'outside_write'
        : null
    if (!kind) continue
    const detail = line.trim().slice(0, 300)
    if (!found.some((f) => f.detail === detail)) found.push({ kind, detail })
    if (found.length >= 20) break
  }
  return found
}

/** How often a running preview's writes are measured against the size limit. */
const SIZE_CHECK_MS = 500

interface RunOutcome {
  exitCode: number | null
  timedOut: boolean
  sizeExceeded: boolean
  stdout: string
  stderr: string
  dropped: number
}

/** Spawns in a process group of its own, keeps the head of each stream, kills the group at the time limit. */
function spawnBounded(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  fdInputs: Uint8Array[],
  limits: PreviewLimits,
  signal?: AbortSignal,
  overSize?: () => boolean
): Promise<RunOutcome> {
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      stdio: ['ignore', 'pipe', 'pipe', ...fdInputs.map(() => 'pipe' as const)],
      detached: true,
      env
    })
    fdInputs.forEach((bytes, i) => {
      const pipe = child.stdio[3 + i]
      if (!pipe || !('end' in pipe)) return
      pipe.on('error', () => {})
      pipe.end(Buffer.from(bytes))
    })
    const out = { stdout: '', stderr: '', dropped: 0 }
    const keep = (stream: 'stdout' | 'stderr') => (chunk: string) => {
      const room = limits.outputChars - out[stream].length
      if (room > 0) out[stream] += chunk.slice(0, room)
      out.dropped += Math.max(0, chunk.length - Math.max(room, 0))
    }
    child.stdout?.setEncoding('utf8').on('data', keep('stdout'))
    child.stderr?.setEncoding('utf8').on('data', keep('stderr'))
    let timedOut = false
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    const timer = setTimeout(() => {
      timedOut = true
      kill()
    }, limits.timeMs)
    let sizeExceeded = false
    const sizeWatch = setInterval(() => {
      if (!overSize?.()) return
      sizeExceeded = true
      kill()
    }, SIZE_CHECK_MS)
    signal?.addEventListener('abort', kill, { once: true })
    child.once('error', (error) => {
      clearTimeout(timer)
      clearInterval(sizeWatch)
      resolve({
        exitCode: null,
        timedOut,
        sizeExceeded,
        stdout: out.stdout,
        stderr: `${out.stderr}${error.message}`,
        dropped: out.dropped
      })
    })
    child.once('close', (exitCode) => {
      clearTimeout(timer)
      clearInterval(sizeWatch)
      signal?.removeEventListener('abort', kill)
      resolve({ exitCode, timedOut, sizeExceeded, ...out })
    })
  })
}
