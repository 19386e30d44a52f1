import { realOrSelf } from './realPaths'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AppDataBoundary } from '../permission/boundary'
import { bwrapArgs } from './bwrap'
import { detectSandbox, type DetectedSandbox } from './detect'
import { buildProfile, SECRET_HOME_PATHS, type SandboxProfile } from './profile'
import { seatbeltArgs, seatbeltProfile } from './seatbelt'
import { socketGuardFilter } from './seccomp'
import { ProtectedGuard, type UndoneEntry } from './protectedGuard'
import { MAX_SCANNED_DIRS } from '../permission/workspaceScan'
import { StubLedger } from './stubs'
export { sweepLeftoverStubs } from './stubs'
import { gitExcludeWithStubs } from './gitExclude'
import type { SandboxKind, SandboxPlan, SandboxStatus } from './types'

export type { SandboxPlan, SandboxStatus } from './types'
export type { UndoneEntry } from './protectedGuard'

export interface SandboxOptions {
  /** The app's data folder and secrets files: never visible inside. */
  appData?: AppDataBoundary
  /** The user's home, hidden inside (default: the real one; tests pass a temp folder). */
  home?: string
  platform?: NodeJS.Platform
  /**
   * Where the stubs in use are journalled (in the data folder), so the next start removes what a
   * host killed mid-command left behind (`sweepLeftoverStubs`).
   */
  stubJournal?: string
  /** How many folders of a writable workspace the scan for protected entries visits (default 20,000; tests lower it). */
  scanLimit?: number
  /** Which sandbox the machine has (default: `detectSandbox()`, probed once). */
  detect?: () => Promise<DetectedSandbox>
}

/** A command ready to spawn inside the sandbox. Call `cleanup()` once it has exited. */
export interface WrappedCommand {
  file: string
  args: string[]
  env: NodeJS.ProcessEnv
  kind: Exclude<SandboxKind, 'none'>
  /** Bytes the spawner pipes in on fds 3, 4, … (bwrap reads its seccomp filter from fd 3). */
  fdInputs: Uint8Array[]
  /**
   * Once the command has exited, before `cleanup()`: moves the protected entries it created
   * (nested `.git`, `.envrc`, git directories, ...) out of the workspace and says which.
   */
  undoProtected(): UndoneEntry[]
  /** Why the workspace is less writable than the plan asked, for the tool result. */
  notice?: string
  cleanup(): void
}

export class SandboxUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`No sandbox available: ${reason}`)
    this.name = 'SandboxUnavailableError'
  }
}

const REUSE_READ_ONLY_PROFILE_MS = 1_000

/** The first fd after stdio: where the spawner pipes `fdInputs[0]` in. */
const SECCOMP_FD = 3

/** Variables that change what a shell or `cd` does before the command runs. */
const SHELL_HOOK_VARIABLES = ['CDPATH', 'BASH_ENV', 'ENV']

/**
 * The OS sandbox for commands nobody approved: bubblewrap on Linux, seatbelt on macOS. Each
 * command gets its own profile from its plan (workspace, read-only or writable).
 */
export class Sandbox {
  private readonly stubs: StubLedger
  private readonly platform: NodeJS.Platform
  private readonly home: string
  private lastReadOnly: { key: string; at: number; profile: SandboxProfile } | null = null

  constructor(private readonly options: SandboxOptions = {}) {
    this.platform = options.platform ?? process.platform
    this.home = options.home ?? homedir()
    this.stubs = new StubLedger(options.stubJournal)
  }

  async status(): Promise<SandboxStatus> {
    const { kind, available, reason, reasonCode, reasonParams, socketGuard } = await this.detect()
    return {
      kind,
      available,
      socketGuard,
      ...(reason !== undefined ? { reason } : {}),
      ...(reasonCode ? { reasonCode } : {}),
      ...(reasonParams ? { reasonParams } : {})
    }
  }

  /** `shell` (e.g. `bash -c <line>`) wrapped to run under `plan`. Throws SandboxUnavailableError when there is no sandbox. */
  async wrap(
    shell: { file: string; args: string[] },
    plan: SandboxPlan,
    options: {
      cwd: string
      env: NodeJS.ProcessEnv
      /** Where protected entries the command created are moved (the session's data folder); else deleted. */
      quarantineDir?: string
    }
  ): Promise<WrappedCommand> {
    const detected = await this.detect()
    if (!detected.available || !detected.program || detected.kind === 'none')
      throw new SandboxUnavailableError(detected.reason ?? 'unknown')
    const linux = detected.kind === 'bwrap'
    const guard = plan.writableWorkspace
      ? ProtectedGuard.before(realOrSelf(plan.workspaceDir), this.home, this.options.scanLimit)
      : null
    const context = {
      nestedProtected: guard ?? undefined,
      home: this.home,
      appData: this.options.appData,
      pathEnv: options.env.PATH,
      privateDirs: linux ? ['/tmp', '/run'] : []
    }
    const profile = plan.writableWorkspace ? buildProfile(plan, context) : this.readOnlyProfile(plan, context)
    const notice = writableNotice(plan, profile, guard, this.options.scanLimit ?? MAX_SCANNED_DIRS)
    const env = sandboxEnvironment(options.env, profile.home ?? this.home, linux)
    if (!linux) {
      const text = seatbeltProfile(profile, this.seatbeltExtras())
      return {
        file: detected.program,
        args: seatbeltArgs(text, shell),
        env,
        kind: 'seatbelt',
        fdInputs: [],
        undoProtected: () => guard?.undoNew(options.quarantineDir, () => false) ?? [],
        ...(notice ? { notice } : {}),
        cleanup: () => {}
      }
    }
    const stubbed = stubbedEntries(profile, this.stubs)
    const exclude = gitExcludeWithStubs(profile.workspaceDir, stubbed)
    const release = this.stubs.hold(stubbed)
    const seccomp = detected.socketGuard === 'seccomp'
    const args = bwrapArgs(profile, shell, options.cwd, {
      gitExclude: exclude?.file,
      seccompFd: seccomp ? SECCOMP_FD : undefined
    })
    const cleanup = (): void => {
      release()
      exclude?.remove()
    }
    const fdInputs = seccomp ? [socketGuardFilter()] : []
    // The stand-ins bwrap leaves for missing top-level entries are the ledger's, not the command's.
    const undoProtected = (): UndoneEntry[] =>
      profile.writableWorkspace
        ? (guard?.undoNew(
            options.quarantineDir,
            (path) => stubbed.includes(path) || this.stubs.isHeld(path)
          ) ?? [])
        : []
    return {
      file: detected.program,
      args,
      env,
      kind: 'bwrap',
      fdInputs,
      undoProtected,
      ...(notice ? { notice } : {}),
      cleanup
    }
  }

  /**
   * A read-only plan's profile, reused for a second: it looks up some sixty paths (about a
   * millisecond), and a read-only run has no protected entries whose state could change under
   * it. What a reuse can miss is a secret file created in a visible toolchain folder within that
   * second; a toolchain folder removed meanwhile is mounted with `--ro-bind-try`.
   */
  private readOnlyProfile(plan: SandboxPlan, context: Parameters<typeof buildProfile>[1]): SandboxProfile {
    const key = JSON.stringify([plan.workspaceDir, context.home, context.pathEnv, context.privateDirs])
    const now = Date.now()
    const last = this.lastReadOnly
    if (last && last.key === key && now - last.at < REUSE_READ_ONLY_PROFILE_MS) return last.profile
    const profile = buildProfile(plan, context)
    this.lastReadOnly = { key, at: now, profile }
    return profile
  }

  private detect(): Promise<DetectedSandbox> {
    return this.options.detect?.() ?? detectSandbox({ platform: this.platform })
  }

  private seatbeltExtras() {
    const home = realOrSelf(this.home)
    const appData = this.options.appData
    return {
      dataDir: appData ? realOrSelf(appData.dataDir) : null,
      secretPaths: [
        ...SECRET_HOME_PATHS.map((p) => realOrSelf(join(home, p))),
        ...(appData?.secretsFiles ?? [])
      ],
      tempDirs: [...new Set([realOrSelf(tmpdir()), '/private/tmp'])]
    }
  }
}

/** What to tell the model when a writable plan got less than a writable workspace. */
function writableNotice(
  plan: SandboxPlan,
  profile: SandboxProfile,
  guard: ProtectedGuard | null,
  scanLimit: number
): string | undefined {
  if (!plan.writableWorkspace) return undefined
  if (!profile.writableWorkspace)
    return 'The workspace was read-only for this command: a protected entry (.git, .envrc, ...) is a symbolic link, or there are more protected entries than can be mounted read-only (2,000).'
  if (guard?.readOnlyBeyondCap)
    return `The workspace has more folders than the sandbox scans for protected entries (${scanLimit}): ${guard.readOnlyBeyondCap} folders beyond them were read-only for this command.`
  return undefined
}

/** Protected entries bwrap will stub on the host: the missing ones, and stubs another command of ours left in place. */
function stubbedEntries(profile: SandboxProfile, ledger: StubLedger): string[] {
  return [...profile.protectedMissing, ...profile.protectedExisting.filter((path) => ledger.isHeld(path))]
}

/**
 * The environment inside: the one given (already built from the allowlist, `childEnvironment`),
 * without shell hooks, HOME at the hidden home.
 */
export function sandboxEnvironment(
  env: NodeJS.ProcessEnv,
  home: string,
  privateTmp: boolean
): NodeJS.ProcessEnv {
  const out = { ...env }
  for (const name of SHELL_HOOK_VARIABLES) delete out[name]
  out.HOME = home
  // The host's TMPDIR may lie in a folder hidden inside; /tmp is private and writable.
  if (privateTmp) out.TMPDIR = '/tmp'
  return out
}
