import { statSync } from 'node:fs'
import { homedir } from 'node:os'
import type { PermissionRequest, RiskLevel } from '@shared/types/permission'
import { appDataAccess, type AppDataBoundary } from './boundary'
import { isInside, isSensitivePath, realPathOf, resolveRealPath, resolveUserPath, tildify } from './paths'
import { protectedWriteOf } from './protectedPaths'
import { reasonOf, type Reason } from './reasonText'

export type FileAccess = 'read' | 'write'

/** Where a session may go without asking. */
export interface FileScope {
  sessionId: string
  workspaceDir: string
  /** The session's own data folder (spilled tool output): readable, never writable by tools. */
  sessionDataDir?: string
  tool: string
  server: string
}

export interface ResolvedFile {
  /** Absolute path as the model meant it (`~` expanded, relative to the base dir). */
  requested: string
  /** Where it really is, after symlinks (dangling ones followed); null when that cannot be known. */
  real: string | null
  /** Why `real` is null (an errno code such as EACCES or ELOOP). */
  error?: string
}

/** What one path is to the session, from free (`inside`) to never (`secrets`). */
export type FileVerdict =
  | { kind: 'inside'; real: string }
  | { kind: 'outside' | 'protected' | 'app_data' | 'secrets'; real: string }
  | { kind: 'unresolvable'; path: string; error: string }

export interface FilePermissionOptions {
  /**
   * The app's own data folder and secrets files. Tools refuse the secrets outright and ask
   * (critical) for the rest of the folder, even inside a workspace that contains it.
   */
  appData?: AppDataBoundary
}

/**
 * Decides whether a read or write needs the user. Inside the workspace (compared by real path,
 * so a symlink pointing out is caught) is free, except writes to protected entries (`.git`, ...)
 * and anything in the app's data folder; anything else is a request. Pure: it looks at the disk
 * but changes nothing, and never throws for a path it cannot resolve (that one is asked, high).
 */
export class FilePermissionService {
  private readonly appData: AppDataBoundary | undefined

  constructor(
    private readonly home: string = homedir(),
    options: FilePermissionOptions = {}
  ) {
    this.appData = options.appData && realBoundary(options.appData)
  }

  resolve(path: string, baseDir: string): ResolvedFile {
    const requested = resolveUserPath(path, baseDir, this.home)
    const result = resolveRealPath(requested)
    return result.ok ? { requested, real: result.real } : { requested, real: null, error: result.error }
  }

  /** How one path stands for `access` in `scope`. */
  judge(access: FileAccess, path: string, scope: FileScope, baseDir = scope.workspaceDir): FileVerdict {
    const { requested, real, error } = this.resolve(path, baseDir)
    if (real === null) return { kind: 'unresolvable', path: requested, error: error ?? 'EUNKNOWN' }
    if (this.isSecretsFile(real)) return { kind: 'secrets', real }
    if (access === 'read' && scope.sessionDataDir && isInside(real, realPathOf(scope.sessionDataDir)))
      return { kind: 'inside', real }
    if (appDataAccess(real, this.appData)) return { kind: 'app_data', real }
    const workspace = resolveRealPath(scope.workspaceDir)
    if (!workspace.ok || !isInside(real, workspace.real)) return { kind: 'outside', real }
    if (access === 'write' && protectedEntryIn(real, workspace.real, this.home))
      return { kind: 'protected', real }
    return { kind: 'inside', real }
  }

  /**
   * Why no tool may touch these paths at all (the app's secrets file), or null. Checked before
   * any permission request: no mode, grant or rule can allow it.
   */
  refusal(paths: string[], scope: FileScope, baseDir = scope.workspaceDir): string | null {
    for (const path of paths) {
      const { real } = this.resolve(path, baseDir)
      if (real !== null && this.isSecretsFile(real)) return secretsRefusal(tildify(real, this.home))
    }
    return null
  }

  /** The request the user must answer, or null when every path is free for this access. */
  check(
    access: FileAccess,
    paths: string[],
    scope: FileScope,
    baseDir = scope.workspaceDir
  ): PermissionRequest | null {
    const flagged = paths.map((p) => this.judge(access, p, scope, baseDir)).filter((v) => v.kind !== 'inside')
    if (flagged.length === 0) return null
    const reasons: Reason[] = []
    let risk: RiskLevel = 'low'
    for (const kind of ['secrets', 'app_data', 'unresolvable', 'protected', 'outside'] as const) {
      const group = flagged.filter((v) => v.kind === kind)
      if (group.length === 0) continue
      const shown = uniqueSorted(group.map(verdictPath))
        .map((p) => tildify(p, this.home))
        .join(', ')
      reasons.push(reasonFor(kind, access, shown, group))
      risk = maxRisk(risk, riskFor(kind, access, group))
    }
    const all = uniqueSorted(flagged.map(verdictPath))
    const rulePath = flagged.find((v) => v.kind !== 'unresolvable' && v.kind !== 'secrets')
    return {
      type: access,
      tool: scope.tool,
      server: scope.server,
      sessionId: scope.sessionId,
      risk,
      reason: reasons.map((r) => r.text).join('; '),
      reasonCodes: reasons.map((r) => r.code),
      paths: all,
      // An unresolvable path or the secrets file is never worth remembering as a rule.
      suggestedRule: rulePath
        ? { kind: access, pattern: tildify(verdictPath(rulePath), this.home), effect: 'allow' }
        : undefined
    }
  }

  /**
   * Real paths below `root` (a real folder) that searches must skip: the data folder (unless the
   * search starts inside it, which was asked for) and the secrets files (always).
   */
  offLimitsBelow(root: string): { folders: string[]; files: string[] } {
    const found = { folders: [] as string[], files: [] as string[] }
    if (!this.appData) return found
    const rootInData = appDataAccess(root, this.appData) !== null
    if (!rootInData && isInside(this.appData.dataDir, root)) found.folders.push(this.appData.dataDir)
    found.files = this.appData.secretsFiles.filter(
      (file) => isInside(file, root) && !found.folders.some((d) => isInside(file, d))
    )
    return found
  }

  /** True when a search started at `root` must not show `real` (second check after the exclusions). */
  hiddenFromSearch(real: string, root: string): boolean {
    if (!this.appData) return false
    if (this.isSecretsFile(real)) return true
    return appDataAccess(real, this.appData) !== null && appDataAccess(root, this.appData) === null
  }

  /** The secrets file by path (or a `<file>.tmp`-style sibling), or the same file under another name (a hard link). */
  isSecretsFile(real: string): boolean {
    if (!this.appData) return false
    if (appDataAccess(real, this.appData) === 'secrets') return true
    const info = statOrNull(real)
    if (!info || info.nlink < 2n) return false
    return this.appData.secretsFiles.some((file) => {
      const secret = statOrNull(file)
      return secret !== null && secret.dev === info.dev && secret.ino === info.ino
    })
  }
}

/** The tool error text for the secrets file. */
export function secretsRefusal(shown: string): string {
  return `${shown} is DeepChat Desk's secrets file; no tool may read or change it.`
}

/**
 * The protected entry a write lands in, in words (`sub/.git`, `sub2 (a git directory)`, ...), or
 * null: see `protectedWriteOf` (names at any depth, git directories and their creation, files
 * git reads through its config).
 */
export function protectedEntryIn(real: string, workspaceReal: string, home = homedir()): string | null {
  return protectedWriteOf(real, workspaceReal, home)?.entry ?? null
}

function reasonFor(
  kind: Exclude<FileVerdict['kind'], 'inside'>,
  access: FileAccess,
  paths: string,
  group: FileVerdict[]
): Reason {
  switch (kind) {
    case 'secrets':
      return reasonOf('secrets_file', { paths })
    case 'app_data':
      return reasonOf('app_data', { paths })
    case 'unresolvable': {
      const errors = uniqueSorted(group.map((v) => (v.kind === 'unresolvable' ? v.error : ''))).join(', ')
      return reasonOf('unresolvable_path', { paths, error: errors })
    }
    case 'protected':
      return reasonOf('protected_path', { paths })
    case 'outside':
      return reasonOf(access === 'read' ? 'outside_workspace_read' : 'outside_workspace_write', { paths })
  }
}

function riskFor(
  kind: Exclude<FileVerdict['kind'], 'inside'>,
  access: FileAccess,
  group: FileVerdict[]
): RiskLevel {
  if (kind === 'secrets' || kind === 'app_data') return 'critical'
  if (kind === 'unresolvable' || kind === 'protected') return 'high'
  const sensitive = group.some((v) => isSensitivePath(verdictPath(v)))
  if (access === 'write') return sensitive ? 'critical' : 'high'
  return sensitive ? 'high' : 'medium'
}

const RISK_ORDER: RiskLevel[] = ['low', 'medium', 'high', 'critical']

function maxRisk(a: RiskLevel, b: RiskLevel): RiskLevel {
  return RISK_ORDER.indexOf(a) >= RISK_ORDER.indexOf(b) ? a : b
}

function verdictPath(verdict: FileVerdict): string {
  return verdict.kind === 'unresolvable' ? verdict.path : verdict.real
}

function uniqueSorted(values: string[]): string[] {
  return [...new Set(values)].sort()
}

/** The boundary with every path made real, so comparisons with real paths hold (the data folder may sit behind a link). */
function realBoundary(boundary: AppDataBoundary): AppDataBoundary {
  return {
    dataDir: realPathOf(boundary.dataDir),
    secretsFiles: boundary.secretsFiles.map((file) => realPathOf(file)),
    scratchRoot: realPathOf(boundary.scratchRoot)
  }
}

function statOrNull(path: string): { dev: bigint; ino: bigint; nlink: bigint } | null {
  try {
    return statSync(path, { bigint: true })
  } catch {
    return null
  }
}
