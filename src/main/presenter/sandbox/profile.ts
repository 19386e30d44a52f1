import { lstatSync, type Stats } from 'node:fs'
import { existing, realOrSelf } from './realPaths'
import { isAbsolute, join, resolve } from 'node:path'
import { PROTECTED_WORKSPACE_ENTRIES, type AppDataBoundary } from '../permission/boundary'
import { isInside } from '../permission/paths'
import { outermost, toolchainFolders, type ToolchainBind } from './toolchains'
import type { SandboxPlan } from './types'

export { toolchainFolders, type ToolchainBind } from './toolchains'

/**
 * Files and folders under home that hold credentials, keys, tokens, cookies or shell history.
 * They are masked wherever the sandbox would otherwise show them: inside a toolchain folder
 * (`~/.cargo/credentials.toml`) or a workspace that contains home.
 */
export const SECRET_HOME_PATHS = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.docker',
  '.password-store',
  '.vault-token',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.config/op',
  '.config/rclone',
  '.config/git/credentials',
  '.local/share/keyrings',
  '.terraform.d',
  '.terraformrc',
  '.s3cfg',
  '.boto',
  '.pgpass',
  '.my.cnf',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.yarnrc',
  '.yarnrc.yml',
  '.gem/credentials',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.m2/settings.xml',
  '.gradle/gradle.properties',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.thunderbird',
  'Library/Keychains',
  'Library/Cookies',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Firefox',
  '.bash_history',
  '.zsh_history',
  '.python_history',
  '.node_repl_history',
  '.psql_history',
  '.mysql_history'
]

/** Everything a sandbox needs to know about one command, as real paths. OS-neutral. */
export interface SandboxProfile {
  workspaceDir: string
  /** False when the plan says so, or when a protected entry is a symlink (it could be swapped). */
  writableWorkspace: boolean
  /** The real home folder, hidden (empty) inside; null when home is `/` or unknown. */
  home: string | null
  /** Folders hidden besides home (Linux: `/tmp` and `/run` become private, empty tmpfs). */
  hiddenDirs: string[]
  /** Toolchain folders inside hidden ones, shown read-only: `source` (real) seen at `target` (the PATH's spelling). */
  toolchains: ToolchainBind[]
  /** Existing protected entries of a writable workspace: read-only. */
  protectedExisting: string[]
  /** Missing protected entries of a writable workspace: must not be creatable. */
  protectedMissing: string[]
  /** The app's data folder when it would be visible; masked (a scratch workspace inside it stays). */
  dataDir: string | null
  /** The workspace is one of the chats' scratch folders in the data folder: it stays visible through the mask. */
  scratchWorkspace: boolean
  /** Secret folders (masked by an empty folder) and files (masked by an empty file) that would be visible. */
  maskedDirs: string[]
  maskedFiles: string[]
}

export interface ProfileContext {
  /** The user's home (tests pass a temp folder). */
  home: string
  appData?: AppDataBoundary
  /** The PATH commands run with: toolchain folders on it stay visible. */
  pathEnv?: string
  /** Folders made private besides home (`/tmp`, `/run` on Linux; none on macOS). */
  privateDirs: string[]
  /**
   * Of a writable workspace: protected entries below the top, git directories, files git reads
   * through its config and folders beyond the scan's cap (`ProtectedGuard`), mounted read-only.
   */
  nestedProtected?: { readOnly: string[]; hasSymlink: boolean }
}

export function buildProfile(plan: SandboxPlan, context: ProfileContext): SandboxProfile {
  const workspaceDir = realOrSelf(resolve(plan.workspaceDir))
  const homeReal = realOrSelf(resolve(context.home))
  const home = homeReal === '/' || !isAbsolute(context.home) ? null : homeReal
  const hiddenDirs = context.privateDirs.map(realOrSelf).filter((dir) => dir !== '/')
  const hiddenAreas = home ? [home, ...hiddenDirs] : hiddenDirs
  const toolchains = toolchainFolders(context.pathEnv ?? '', hiddenAreas, workspaceDir)
  const protectedEntries = plan.writableWorkspace
    ? protectedEntriesOf(workspaceDir, context.nestedProtected)
    : null
  const writableWorkspace = plan.writableWorkspace && !protectedEntries?.hasSymlink
  const visible = (path: string): boolean =>
    isInside(path, workspaceDir) ||
    toolchains.some(({ target }) => isInside(path, target)) ||
    !hiddenAreas.some((area) => isInside(path, area))
  const dataReal =
    context.appData && existing(context.appData.dataDir) ? realOrSelf(context.appData.dataDir) : null
  const dataDir = dataReal && visible(dataReal) ? dataReal : null
  const scratchWorkspace = isScratchWorkspace(workspaceDir, context.appData)
  // The data mask hides everything in the data folder but a scratch workspace bound inside it.
  const hiddenAfterMasks = (path: string): boolean =>
    !!dataDir && isInside(path, dataDir) && !(scratchWorkspace && isInside(path, workspaceDir))
  const masks = secretMasks(
    home ?? homeReal,
    context.appData,
    (path) => visible(path) && !hiddenAfterMasks(path)
  )
  return {
    workspaceDir,
    writableWorkspace,
    home,
    hiddenDirs,
    toolchains,
    protectedExisting: writableWorkspace ? (protectedEntries?.existing ?? []) : [],
    protectedMissing: writableWorkspace ? (protectedEntries?.missing ?? []) : [],
    dataDir,
    scratchWorkspace,
    maskedDirs: masks.dirs,
    maskedFiles: masks.files
  }
}

/** Only a chat's scratch folder may be a workspace inside the data folder; any other place there stays masked. */
function isScratchWorkspace(workspaceDir: string, appData: AppDataBoundary | undefined): boolean {
  if (!appData) return false
  const scratchRoot = realOrSelf(appData.scratchRoot)
  return workspaceDir !== scratchRoot && isInside(workspaceDir, scratchRoot)
}

function outermostDirs(dirs: string[]): string[] {
  return outermost(dirs.map((dir) => ({ source: dir, target: dir }))).map((bind) => bind.target)
}

interface ProtectedEntries {
  existing: string[]
  missing: string[]
  hasSymlink: boolean
}

/** More read-only mounts than this and the whole workspace is read-only instead. */
const MAX_PROTECTED_MOUNTS = 2000

/**
 * Top-level protected entries (existing ones mounted read-only, missing ones stubbed), plus the
 * nested ones the guard found. A symlinked entry, or too many to mount, sets `hasSymlink`:
 * the workspace is then read-only.
 */
function protectedEntriesOf(
  workspaceDir: string,
  nested: ProfileContext['nestedProtected']
): ProtectedEntries {
  const result: ProtectedEntries = { existing: [], missing: [], hasSymlink: !!nested?.hasSymlink }
  for (const entry of PROTECTED_WORKSPACE_ENTRIES) {
    const path = join(workspaceDir, entry)
    const stats = lstatOrNull(path)
    if (!stats) result.missing.push(path)
    else if (stats.isSymbolicLink()) result.hasSymlink = true
    else result.existing.push(path)
  }
  const known = new Set([...result.existing, ...result.missing])
  for (const path of nested?.readOnly ?? []) if (!known.has(path)) result.existing.push(path)
  if (result.existing.length > MAX_PROTECTED_MOUNTS) result.hasSymlink = true
  // Parents before children: a mount inside a read-only mount must come after it.
  result.existing.sort((a, b) => a.length - b.length)
  return result
}

/** Real paths of the secret folders and files that exist and would be visible. */
function secretMasks(
  home: string,
  appData: AppDataBoundary | undefined,
  visible: (path: string) => boolean
): { dirs: string[]; files: string[] } {
  const dirs: string[] = []
  const files: string[] = []
  const candidates = [...SECRET_HOME_PATHS.map((p) => join(home, p)), ...(appData?.secretsFiles ?? [])]
  for (const candidate of candidates) {
    if (!existing(candidate)) continue
    const real = realOrSelf(candidate)
    const isDir = lstatOrNull(real)?.isDirectory() ?? false
    // Masked where it really is and where it is spelled, if that differs and is visible too.
    for (const path of new Set([real, resolve(candidate)]))
      if (visible(path)) (isDir ? dirs : files).push(path)
  }
  const outerDirs = outermostDirs(dirs)
  return {
    dirs: outerDirs,
    files: [...new Set(files)].filter((file) => !outerDirs.some((dir) => isInside(file, dir)))
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? null
  } catch {
    return null
  }
}
