import { isInside } from './paths'

/**
 * Entries of a workspace that configure programs which run later without asking: git config
 * and hooks (fsmonitor, pagers, diff drivers), our own skills and settings, editor task and
 * launch configs, direnv, the hooks folders of husky and of `core.hooksPath=.githooks`. They are
 * protected at any depth (`sub/.git`, `a/b/.vscode`), together with git directories and the
 * files git reads through its config (`protectedPaths.ts`). Writing them asks (high) in every
 * mode but full access, and the sandbox mounts them read-only.
 */
export const PROTECTED_WORKSPACE_ENTRIES = [
  '.git',
  '.deepchat',
  '.vscode',
  '.idea',
  '.envrc',
  '.husky',
  '.githooks'
] as const
export type ProtectedEntry = (typeof PROTECTED_WORKSPACE_ENTRIES)[number]

/** The protected entry `realPath` is or lies in (`.git` for `<ws>/.git/config`), or null. Both paths real and absolute. */
export function protectedEntryOf(realPath: string, workspaceReal: string): ProtectedEntry | null {
  for (const entry of PROTECTED_WORKSPACE_ENTRIES) {
    if (isInside(realPath, joinPath(workspaceReal, entry))) return entry
  }
  return null
}

/**
 * The app's own data folder (database, secrets, spilled output, logs). It is outside every
 * boundary even when a workspace contains it; only the scratch workspaces kept in it are
 * ordinary workspaces.
 */
export interface AppDataBoundary {
  /** Real path of the data folder. */
  dataDir: string
  /** Real paths of the files holding secrets: tools refuse them outright. */
  secretsFiles: string[]
  /** Real path of the folder holding chats' scratch workspaces (inside `dataDir`). */
  scratchRoot: string
}

export type AppDataAccess = 'secrets' | 'app_data' | null

/**
 * What `realPath` is to the app: a secrets file, some other part of the data folder, or
 * nothing of ours. Scratch workspaces count as nothing of ours (ordinary workspace rules apply).
 */
export function appDataAccess(realPath: string, boundary: AppDataBoundary | undefined): AppDataAccess {
  if (!boundary) return null
  if (boundary.secretsFiles.some((file) => realPath === file || realPath.startsWith(`${file}.`)))
    return 'secrets'
  if (!isInside(realPath, boundary.dataDir)) return null
  return isInside(realPath, boundary.scratchRoot) && realPath !== boundary.scratchRoot ? null : 'app_data'
}

function joinPath(root: string, entry: string): string {
  const separator = root.includes('\\') && !root.includes('/') ? '\\' : '/'
  return root.endsWith(separator) ? `${root}${entry}` : `${root}${separator}${entry}`
}
