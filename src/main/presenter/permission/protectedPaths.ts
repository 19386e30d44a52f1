import { join, relative, sep } from 'node:path'
import {
  completesGitDir,
  gitFileTarget,
  indirectionsOf,
  isGitDirectory,
  userGitConfigs,
  type Repository
} from './gitDirectories'
import { isInside, realPathOf } from './paths'
import { reasonOf, type Reason } from './reasonText'
import { repositoryRootOf } from './gitRules'
import { isProtectedName, workspaceIndexOf } from './workspaceScan'

/**
 * Why writing a path could make a program run later on the host. `entry` is the protected thing,
 * workspace-relative (`sub/.git`, the git directory `bare.git`, the include target `.gitconfig`;
 * `.` is the workspace itself), `kind` what it is.
 */
export interface ProtectedHit {
  entry: string
  kind: 'entry' | 'git_dir' | 'creates_git_dir' | 'git_reads' | 'config_unreadable' | 'link_target'
}

/** The classifier's reason for a write that `hit` protects. */
export function protectedReason(path: string, hit: ProtectedHit): Reason {
  const params = { path, entry: hit.entry }
  switch (hit.kind) {
    case 'entry':
      return reasonOf('protected_write', params)
    case 'git_dir':
      return reasonOf('protected_git_dir', params)
    case 'creates_git_dir':
      return reasonOf('protected_git_creation', params)
    case 'git_reads':
      return reasonOf('protected_git_reads', params)
    case 'config_unreadable':
      return reasonOf('protected_config_unreadable', params)
    case 'link_target':
      return reasonOf('protected_link_target', params)
  }
}

/** How old a workspace scan may be for a permission check (the sandbox always scans afresh). */
const SCAN_MAX_AGE_MS = 1000

/**
 * The protection `real` (a real path inside `workspaceReal`) falls under when written:
 *
 * - a protected entry at any depth (`.git`, `.envrc`, `.vscode`, ... in any folder);
 * - a folder that is a git directory (`HEAD` with `objects/`, `refs/`, `config`, ...), or the path
 *   itself being one;
 * - a write that would complete a git directory (`HEAD` into a folder with `config`, `objects`
 *   into one with `HEAD`), including the workspace itself;
 * - a file git reads through a repository's config: `include.path`/`includeIf.*.path` targets and
 *   the `core.hooksPath` folder, for the repository holding the workspace, those inside it, and
 *   the user's own git config; a repository whose config cannot be read protects its whole tree.
 */
export function protectedWriteOf(real: string, workspaceReal: string, home: string): ProtectedHit | null {
  if (!isInside(real, workspaceReal)) return null
  const rel = relative(workspaceReal, real)
  const parts = rel === '' ? [] : rel.split(sep)
  for (let i = 0; i < parts.length; i++) {
    if (isProtectedName(parts[i])) return { entry: parts.slice(0, i + 1).join('/'), kind: 'entry' }
  }
  for (let i = 0; i <= parts.length; i++) {
    const dir = join(workspaceReal, ...parts.slice(0, i))
    if (isGitDirectory(dir)) return { entry: shown(parts.slice(0, i)), kind: 'git_dir' }
    if (i < parts.length && completesGitDir(dir, parts[i]))
      return {
        entry: shown(parts.slice(0, i)),
        kind: 'creates_git_dir'
      }
  }
  return gitIndirectionOf(real, workspaceReal, home, parts)
}

function shown(parts: string[]): string {
  return parts.length ? parts.join('/') : '.'
}

function gitIndirectionOf(
  real: string,
  workspaceReal: string,
  home: string,
  parts: string[]
): ProtectedHit | null {
  const scan = workspaceIndexOf(workspaceReal).recent(SCAN_MAX_AGE_MS)
  // A protected entry that is a link makes its target what git or direnv reads.
  const linked = scan.found.find((f) => f.linkTarget && isInside(real, f.linkTarget))
  if (linked) return { entry: relative(workspaceReal, linked.path), kind: 'link_target' }
  const repositories = repositoriesAround(workspaceReal, parts)
  const userConfigs = userGitConfigs(home)
  for (const repo of repositories) {
    const { targets, unreadable } = indirectionsOf(repo, home, userConfigs)
    const target = targets.find((t) => isInside(real, t))
    if (target)
      return {
        entry: relative(workspaceReal, target) || '.',
        kind: 'git_reads'
      }
    if (unreadable.length && isInside(real, repo.worktree ?? repo.gitDir))
      return {
        entry: relative(workspaceReal, repo.worktree ?? repo.gitDir) || '.',
        kind: 'config_unreadable'
      }
  }
  return null
}

/**
 * The repositories whose configs matter for a write: the one holding the workspace (its root may
 * lie above), every one the workspace scan finds, and those on the way down to `real` (in case
 * the scan stopped at its cap).
 */
function repositoriesAround(workspaceReal: string, parts: string[]): Repository[] {
  const repos: Repository[] = []
  const top = repositoryRootOf(workspaceReal)
  if (top) {
    const dotGit = join(top, '.git')
    const gitDir = gitFileTarget(dotGit) ?? realPathOf(dotGit)
    repos.push({ gitDir, worktree: top })
  }
  const scan = workspaceIndexOf(workspaceReal).recent(SCAN_MAX_AGE_MS)
  repos.push(...scan.repositories)
  if (scan.unvisited.length) {
    for (let i = 1; i < parts.length; i++) {
      const dir = join(workspaceReal, ...parts.slice(0, i))
      const dotGit = join(dir, '.git')
      const target = gitFileTarget(dotGit)
      if (target || isGitDirectory(dotGit)) repos.push({ gitDir: target ?? dotGit, worktree: dir })
    }
  }
  return repos
}
