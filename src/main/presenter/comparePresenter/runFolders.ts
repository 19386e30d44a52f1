import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { AppError } from '@shared/errors'
import type { CompareFileChange } from '@shared/types/compare'
import { git, gitOrNull } from './git'

/** A scratch copy larger than this is refused (a git repository gets a worktree instead). */
export const MAX_COPY_BYTES = 200 * 1024 * 1024
export const MAX_COPY_ENTRIES = 20_000
/** The diff a run view carries; the patch that is applied is never cut. */
export const MAX_DIFF_VIEW_CHARS = 200_000

export const RUN_FOLDER_PREFIX = 'compare-'

/** A run's own copy of the chat's folder, and the baseline its changes are measured against. */
export interface RunFolder {
  kind: 'worktree' | 'copy'
  /** The worktree's top (worktree) or the copy (copy): what is removed at the end. */
  root: string
  /** The folder the run works in: the chat's folder's place inside `root`. */
  workspace: string
  /** A git directory outside every workspace holding the folder as it was at the start. */
  baseline: string
  /** The user's repository's common git dir (worktree only): where the worktree is registered. */
  repoGitDir: string | null
  /** Why the run works on a copy, in the user's words (null for a worktree). */
  note: string | null
}

export interface FolderChanges {
  files: CompareFileChange[]
  /** The whole binary-safe patch, relative to the workspace. */
  patch: string
}

/**
 * The chat's folder as a run's own: `git worktree add --detach` at HEAD with the folder's
 * uncommitted changes (tracked diff and untracked files) put on top, or, when the folder is not
 * in a git repository or the worktree cannot be made, a copy (capped in size).
 */
export async function prepareRunFolder(
  source: string,
  paths: { root: string; baseline: string }
): Promise<RunFolder> {
  const top = (await gitOrNull(['rev-parse', '--show-toplevel'], { cwd: source }))?.trim()
  let note: string | null = 'The folder is not in a git repository: the run works on a copy.'
  if (top && (await gitOrNull(['rev-parse', '--verify', '-q', 'HEAD'], { cwd: top })) !== null) {
    try {
      return await worktreeFolder(source, top, paths)
    } catch (error) {
      note = `No worktree (${error instanceof Error ? error.message : String(error)}): the run works on a copy.`
      rmSync(paths.root, { recursive: true, force: true })
      rmSync(paths.baseline, { recursive: true, force: true })
    }
  } else if (top) note = 'The repository has no commit yet: the run works on a copy.'
  copyFolder(source, paths.root)
  await makeBaseline(paths.baseline, paths.root, null)
  return {
    kind: 'copy',
    root: paths.root,
    workspace: paths.root,
    baseline: paths.baseline,
    repoGitDir: null,
    note
  }
}

async function worktreeFolder(
  source: string,
  top: string,
  paths: { root: string; baseline: string }
): Promise<RunFolder> {
  const common = resolve(top, (await git(['rev-parse', '--git-common-dir'], { cwd: top })).trim())
  mkdirSync(dirname(paths.root), { recursive: true })
  await git(['worktree', 'add', '--detach', paths.root, 'HEAD'], { cwd: top })
  const folder: RunFolder = {
    kind: 'worktree',
    root: paths.root,
    workspace: join(paths.root, relative(top, resolve(source))),
    baseline: paths.baseline,
    repoGitDir: common,
    note: null
  }
  try {
    // What the user has not committed is part of the folder the run starts from.
    const tracked = await git(['diff', '--binary', 'HEAD'], { cwd: top })
    if (tracked.trim())
      await git(['apply', '--binary', '--whitespace=nowarn', '-'], { cwd: paths.root, input: tracked })
    const untracked = (await git(['ls-files', '--others', '--exclude-standard', '-z'], { cwd: top }))
      .split('\0')
      .filter(Boolean)
    for (const path of untracked) copyEntry(join(top, path), join(paths.root, path))
    mkdirSync(folder.workspace, { recursive: true })
    await makeBaseline(paths.baseline, folder.workspace, join(common, 'objects'))
    return folder
  } catch (error) {
    await removeRunFolder(folder)
    throw error
  }
}

function copyEntry(from: string, to: string): void {
  const stats = lstatSync(from)
  mkdirSync(dirname(to), { recursive: true })
  if (stats.isSymbolicLink()) symlinkSync(readlinkSync(from), to)
  else if (stats.isFile()) copyFileSync(from, to)
}

/** A copy of `source` without `.git` folders; refused past MAX_COPY_BYTES / MAX_COPY_ENTRIES. */
function copyFolder(source: string, target: string): void {
  let bytes = 0
  let entries = 0
  const plan: Array<{ from: string; to: string; kind: 'dir' | 'file' | 'link' }> = []
  const walk = (dir: string, out: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.git') continue
      const from = join(dir, entry.name)
      const to = join(out, entry.name)
      if (++entries > MAX_COPY_ENTRIES) throw tooLarge(source, `more than ${MAX_COPY_ENTRIES} entries`)
      if (entry.isDirectory()) {
        plan.push({ from, to, kind: 'dir' })
        walk(from, to)
      } else if (entry.isSymbolicLink()) plan.push({ from, to, kind: 'link' })
      else if (entry.isFile()) {
        bytes += lstatSync(from).size
        if (bytes > MAX_COPY_BYTES) throw tooLarge(source, `more than ${MAX_COPY_BYTES / 1024 / 1024} MB`)
        plan.push({ from, to, kind: 'file' })
      }
    }
  }
  walk(source, target)
  mkdirSync(target, { recursive: true })
  for (const step of plan) {
    if (step.kind === 'dir') mkdirSync(step.to, { recursive: true })
    else if (step.kind === 'link') symlinkSync(readlinkSync(step.from), step.to)
    else copyFileSync(step.from, step.to)
  }
}

function tooLarge(source: string, what: string): AppError {
  return new AppError(
    'compare_folder_too_large',
    `The chat's folder ${source} has ${what}; a comparison copies at most ${MAX_COPY_BYTES / 1024 / 1024} MB and ${MAX_COPY_ENTRIES} entries of a folder that is not a git repository. Make it a git repository (each run then gets a worktree) or compare in a chat without a folder.`
  )
}

const baselineArgs = (baseline: string, workTree: string) => [
  '--git-dir',
  baseline,
  '--work-tree',
  workTree,
  '-c',
  'core.bare=false',
  '-c',
  'user.name=DeepChat compare',
  '-c',
  'user.email=compare@localhost'
]

/** Records the folder as it is now; `alternates` shares the user's objects instead of copying them. */
async function makeBaseline(baseline: string, workTree: string, alternates: string | null): Promise<void> {
  mkdirSync(dirname(baseline), { recursive: true })
  await git(['init', '-q', '--bare', baseline], { cwd: dirname(baseline) })
  if (alternates) writeFileSync(join(baseline, 'objects', 'info', 'alternates'), `${alternates}\n`)
  const args = baselineArgs(baseline, workTree)
  await git([...args, 'add', '-A', '.'], { cwd: workTree })
  await git([...args, 'commit', '-q', '--allow-empty', '--no-verify', '-m', 'compare baseline'], {
    cwd: workTree
  })
}

/** What the run changed in its folder since the start (gitignored files are not looked at). */
export async function folderChanges(folder: RunFolder): Promise<FolderChanges> {
  if (!existsSync(folder.workspace)) return { files: [], patch: '' }
  const args = baselineArgs(folder.baseline, folder.workspace)
  const cwd = folder.workspace
  await git([...args, 'add', '-A', '.'], { cwd })
  const patch = await git([...args, 'diff', '--cached', '--binary', '--no-renames', 'HEAD'], { cwd })
  const numstat = await git([...args, 'diff', '--cached', '--numstat', '--no-renames', '-z', 'HEAD'], { cwd })
  const status = await git([...args, 'diff', '--cached', '--name-status', '--no-renames', '-z', 'HEAD'], {
    cwd
  })
  const kinds = new Map<string, CompareFileChange['status']>()
  const parts = status.split('\0')
  for (let i = 0; i + 1 < parts.length; i += 2)
    kinds.set(parts[i + 1], parts[i] === 'A' ? 'added' : parts[i] === 'D' ? 'deleted' : 'modified')
  const files: CompareFileChange[] = []
  for (const line of numstat.split('\0')) {
    const match = /^(-|\d+)\t(-|\d+)\t(.+)$/s.exec(line)
    if (!match) continue
    const path = match[3]
    files.push({
      path,
      status: kinds.get(path) ?? 'modified',
      added: match[1] === '-' ? null : Number(match[1]),
      removed: match[2] === '-' ? null : Number(match[2])
    })
  }
  return { files, patch }
}

/**
 * Applies a run's patch to the chat's folder: checked first, then applied as a whole, so a
 * folder that changed in a conflicting way since the start is refused and left as it was.
 */
export async function applyToFolder(folder: RunFolder, patch: string, target: string): Promise<void> {
  if (!patch.trim()) return
  const args = [...baselineArgs(folder.baseline, target), 'apply', '--binary', '--whitespace=nowarn']
  try {
    await git([...args, '--check', '-'], { cwd: target, input: patch })
  } catch (error) {
    throw new AppError(
      'compare_conflict',
      `The chat's folder changed since the comparison started, in a way that conflicts with this run's changes; nothing was applied and the runs are kept as they are. ${error instanceof Error ? error.message : String(error)}`.slice(
        0,
        2000
      )
    )
  }
  await git([...args, '-'], { cwd: target, input: patch })
}

/** Removes the worktree (`git worktree remove --force`, then prune) or the copy, and the baseline. */
export async function removeRunFolder(
  folder: Pick<RunFolder, 'root' | 'baseline' | 'repoGitDir'>
): Promise<void> {
  if (folder.repoGitDir && existsSync(folder.repoGitDir)) {
    await gitOrNull(['--git-dir', folder.repoGitDir, 'worktree', 'remove', '--force', folder.root], {
      cwd: dirname(folder.repoGitDir)
    })
    await gitOrNull(['--git-dir', folder.repoGitDir, 'worktree', 'prune'], {
      cwd: dirname(folder.repoGitDir)
    })
  }
  rmSync(folder.root, { recursive: true, force: true })
  rmSync(folder.baseline, { recursive: true, force: true })
}

/**
 * What a host that was killed mid-comparison left: every `compare-*` folder in the scratch root
 * (a worktree is unregistered from its repository first) and every baseline.
 */
export async function sweepLeftovers(scratchRoot: string, baselinesRoot: string): Promise<string[]> {
  const removed: string[] = []
  let names: string[]
  try {
    names = readdirSync(scratchRoot).filter((n) => n.startsWith(RUN_FOLDER_PREFIX))
  } catch {
    names = [] // no scratch folder yet
  }
  for (const name of names) {
    const root = join(scratchRoot, name)
    const repoGitDir = worktreeRepo(root)
    await removeRunFolder({ root, baseline: join(baselinesRoot, `${name}.git`), repoGitDir })
    removed.push(root)
  }
  rmSync(baselinesRoot, { recursive: true, force: true })
  return removed
}

/** The common git dir of the repository a worktree belongs to, read from its `.git` file. */
function worktreeRepo(root: string): string | null {
  try {
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(join(root, '.git'), 'utf8'))?.[1]?.trim()
    if (!pointer) return null
    // <common>/worktrees/<name>
    const gitdir = resolve(root, pointer)
    const parts = gitdir.split(sep)
    const at = parts.lastIndexOf('worktrees')
    return at > 0 ? parts.slice(0, at).join(sep) : null
  } catch {
    return null
  }
}
