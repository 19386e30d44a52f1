import { lstatSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { indirectionsOf, userGitConfigs } from '../permission/gitDirectories'
import { isInside, realPathOf } from '../permission/paths'
import { repositoryRootOf } from '../permission/gitRules'
import { MAX_SCANNED_DIRS, workspaceIndexOf, type ProtectedFound } from '../permission/workspaceScan'

/** The look after a run may visit this many times more folders than the one before it. */
const AFTER_RUN_FACTOR = 11

/** One protected entry a sandboxed command created, and what became of it. */
export interface UndoneEntry {
  /** Workspace-relative path of what was created (`sub/.envrc`, `sub2/.git`, `bare/HEAD`). */
  path: string
  /** Where it was moved (in the session's data folder), or null when it was deleted. */
  movedTo: string | null
}

/**
 * Protected entries below the top of a writable workspace, for one sandboxed command. bwrap can
 * mount what exists read-only but cannot forbid creating a name in a writable folder, so:
 * before the run, a scan finds every protected entry, git directory and file git reads through
 * a repository's config (these are mounted read-only, as are folders beyond the scan's cap);
 * after the run, a second scan finds what is new (by device and inode, so a moved folder is not
 * new) and moves it into the session's data folder.
 */
export class ProtectedGuard {
  private constructor(
    private readonly workspace: string,
    private readonly scanLimit: number,
    private readonly before: Set<string>,
    private readonly targets: string[],
    /** Folders beyond the first scan's cap: mounted read-only, so nothing in them is new. */
    private readonly unvisited: string[],
    /** Read-only mounts for the run. */
    readonly readOnly: string[],
    /** A protected entry is a symbolic link: the workspace must be read-only (a link can be swapped). */
    readonly hasSymlink: boolean
  ) {}

  /** Folders beyond the scan's cap, read-only for this run (a huge workspace); said in the tool result. */
  get readOnlyBeyondCap(): number {
    return this.unvisited.length
  }

  /** Scans `workspace` (a real path) before a writable run. */
  static before(workspace: string, home: string, scanLimit = MAX_SCANNED_DIRS): ProtectedGuard {
    const scan = workspaceIndexOf(workspace).scan(scanLimit)
    const targets = indirectionTargets(workspace, home, scan.repositories)
    const before = new Set(scan.found.map((f) => f.id))
    const readOnly: string[] = []
    let hasSymlink = false
    for (const found of scan.found) {
      if (isLink(found.path)) hasSymlink = true
      else readOnly.push(found.path)
    }
    for (const target of targets) {
      const id = identity(target)
      if (!id) continue
      before.add(id)
      if (!readOnly.some((path) => isInside(target, path))) readOnly.push(target)
    }
    readOnly.push(...scan.unvisited)
    return new ProtectedGuard(workspace, scanLimit, before, targets, scan.unvisited, readOnly, hasSymlink)
  }

  /**
   * After the run: every protected entry, git directory and config-read file that was not there
   * before is moved to `quarantineDir` (deleted when it cannot be moved there). `skip` are the
   * sandbox's own stand-ins for missing top-level entries.
   */
  undoNew(quarantineDir: string | undefined, skip: (path: string) => boolean): UndoneEntry[] {
    // A command may make many folders to push a plant beyond the cap: look further this time.
    const scan = workspaceIndexOf(this.workspace).scan(this.scanLimit * AFTER_RUN_FACTOR)
    const wasReadOnly = (path: string): boolean => this.unvisited.some((dir) => isInside(path, dir))
    const created: ProtectedFound[] = scan.found.filter(
      (f) => !this.before.has(f.id) && !skip(f.path) && !wasReadOnly(f.path)
    )
    // New folders even that walk did not reach are taken out whole: what they hold is unknown.
    for (const dir of scan.unvisited)
      if (!wasReadOnly(dir)) created.push({ path: dir, id: identity(dir) ?? dir, kind: 'entry' })
    for (const target of this.targets) {
      const id = identity(target)
      if (id && !this.before.has(id) && !created.some((c) => isInside(target, c.path)))
        created.push({ path: target, id, kind: 'entry' })
    }
    const undone: UndoneEntry[] = []
    const batch = join(quarantineDir ?? '', `quarantine-${Date.now()}`)
    for (const found of created) {
      // A git directory stops being one without its HEAD; the rest of the folder may be the user's.
      const path = found.kind === 'git_dir' ? join(found.path, 'HEAD') : found.path
      const rel = relative(this.workspace, path) || '.'
      undone.push({ path: rel, movedTo: moveAway(path, quarantineDir ? join(batch, rel) : null) })
    }
    return undone
  }
}

/** Files git reads through the configs of the workspace's repositories, those inside the workspace. */
function indirectionTargets(
  workspace: string,
  home: string,
  repositories: { gitDir: string; worktree: string | null }[]
): string[] {
  const repos = [...repositories]
  const top = repositoryRootOf(workspace)
  if (top && top !== workspace) repos.push({ gitDir: realPathOf(join(top, '.git')), worktree: top })
  const userConfigs = userGitConfigs(home)
  const targets = new Set<string>()
  for (const repo of repos)
    for (const target of indirectionsOf(repo, home, userConfigs).targets)
      if (isInside(target, workspace) && target !== workspace) targets.add(target)
  return [...targets]
}

function moveAway(path: string, destination: string | null): string | null {
  if (destination) {
    try {
      mkdirSync(dirname(destination), { recursive: true })
      renameSync(path, destination)
      return destination
    } catch {
      // Another file system (EXDEV) or no data folder: delete it instead.
    }
  }
  rmSync(path, { recursive: true, force: true })
  return null
}

function identity(path: string): string | null {
  try {
    const stats = lstatSync(path, { bigint: true })
    return `${stats.dev}:${stats.ino}`
  } catch {
    return null
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}
