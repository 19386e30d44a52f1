import { lstatSync, readdirSync, type BigIntStats, type Dirent } from 'node:fs'
import { dirname, join } from 'node:path'
import { PROTECTED_WORKSPACE_ENTRIES } from './boundary'
import { foldName, gitFileTarget, namesMakeGitDir, type Repository } from './gitDirectories'
import { realPathOf } from './paths'

/** How many folders one scan visits; the rest is reported as `unvisited` (the sandbox mounts those read-only). */
export const MAX_SCANNED_DIRS = 20_000

const PROTECTED_NAMES = new Set<string>(PROTECTED_WORKSPACE_ENTRIES.map(foldName))

/** True when `name` is a protected entry's name (`.git`, `.envrc`, ...; any case on macOS and Windows). */
export function isProtectedName(name: string): boolean {
  return PROTECTED_NAMES.has(foldName(name))
}

/** A protected entry or git directory found in the workspace, with its identity (device and inode). */
export interface ProtectedFound {
  path: string
  id: string
  kind: 'entry' | 'git_dir'
  /** Where a protected entry that is a symbolic link leads (`sub/.envrc -> ../notes.sh`): git or direnv read that. */
  linkTarget?: string
}

export interface WorkspaceScan {
  root: string
  /** Protected entries at any depth and folders that are git directories; the walk does not enter them. */
  found: ProtectedFound[]
  /** Repositories whose git directory lies in the workspace: `.git` folders and files, bare git directories. */
  repositories: Repository[]
  /** Folders the walk did not reach because it hit `MAX_SCANNED_DIRS` (breadth first, so the deepest ones). */
  unvisited: string[]
  /** Changed since the previous scan of this index (folders whose status-change time moved were read again). */
  dirsRead: number
  dirsVisited: number
}

interface DirState {
  ino: bigint
  ctimeNs: bigint
  childDirs: string[]
  found: ProtectedFound[]
  repositories: Repository[]
}

/**
 * A walk of a workspace for protected entries at any depth, kept between scans. A folder's
 * status-change time moves whenever an entry in it is created, removed or renamed, and no
 * process can set it back, so a later scan stats every folder and reads again only those whose
 * time (or inode) changed. Links are never followed; protected entries and git directories are
 * not entered.
 */
export class WorkspaceIndex {
  private dirs = new Map<string, DirState>()
  private last: { scan: WorkspaceScan; at: number } | null = null

  constructor(
    readonly root: string,
    private readonly maxDirs = MAX_SCANNED_DIRS
  ) {}

  /** A scan at most `maxAgeMs` old (for permission checks; the sandbox always scans afresh). */
  recent(maxAgeMs: number): WorkspaceScan {
    if (this.last && Date.now() - this.last.at <= maxAgeMs) return this.last.scan
    return this.scan()
  }

  /** Scans now; `maxDirs` raises the cap for one scan (the sandbox's look after a run). */
  scan(maxDirs = this.maxDirs): WorkspaceScan {
    const next = new Map<string, DirState>()
    const found: ProtectedFound[] = []
    const repositories: Repository[] = []
    const queue = [this.root]
    let dirsRead = 0
    let head = 0
    while (head < queue.length && next.size < maxDirs) {
      const dir = queue[head++]
      const info = lstatOrNull(dir)
      if (!info?.isDirectory()) continue
      const previous = this.dirs.get(dir)
      let state: DirState
      if (previous && previous.ino === info.ino && previous.ctimeNs === info.ctimeNs) state = previous
      else {
        dirsRead++
        state = readDir(dir, info)
      }
      next.set(dir, state)
      found.push(...state.found)
      repositories.push(...state.repositories)
      for (const child of state.childDirs) queue.push(child)
    }
    this.dirs = next
    const scan: WorkspaceScan = {
      root: this.root,
      found,
      repositories,
      unvisited: queue.slice(head),
      dirsRead,
      dirsVisited: next.size
    }
    this.last = { scan, at: Date.now() }
    return scan
  }
}

function readDir(dir: string, info: { ino: bigint; ctimeNs: bigint; dev: bigint }): DirState {
  const state: DirState = {
    ino: info.ino,
    ctimeNs: info.ctimeNs,
    childDirs: [],
    found: [],
    repositories: []
  }
  let entries: Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    // Unreadable for us is unreadable for git and direnv run by the same user.
    return state
  }
  if (namesMakeGitDir(entries.map((e) => e.name))) {
    state.found.push({ path: dir, id: `${info.dev}:${info.ino}`, kind: 'git_dir' })
    state.repositories.push({ gitDir: dir, worktree: null })
    return state
  }
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (isProtectedName(entry.name)) {
      const stats = lstatOrNull(path)
      if (!stats) continue
      const id = `${stats.dev}:${stats.ino}`
      state.found.push(
        stats.isSymbolicLink()
          ? { path, id, kind: 'entry', linkTarget: realPathOf(path) }
          : { path, id, kind: 'entry' }
      )
      if (foldName(entry.name) === '.git') {
        const gitDir = stats.isDirectory() ? path : stats.isFile() ? gitFileTarget(path) : realPathOf(path)
        if (gitDir) state.repositories.push({ gitDir, worktree: dirname(path) })
      }
    } else if (entry.isDirectory()) state.childDirs.push(path)
  }
  return state
}

function lstatOrNull(path: string): BigIntStats | null {
  try {
    return lstatSync(path, { bigint: true })
  } catch {
    return null
  }
}

const indexes = new Map<string, WorkspaceIndex>()

/** The shared index of one workspace (a real path). */
export function workspaceIndexOf(root: string): WorkspaceIndex {
  let index = indexes.get(root)
  if (!index) {
    if (indexes.size > 50) indexes.clear()
    index = new WorkspaceIndex(root)
    indexes.set(root, index)
  }
  return index
}
