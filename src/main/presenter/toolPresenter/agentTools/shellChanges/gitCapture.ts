import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import {
  MAX_CHANGED_FILES,
  SHELL_CAPTURE_BUDGET_MS,
  SHELL_CAPTURE_EXCLUDES,
  SHELL_CAPTURE_MAX_FILE_BYTES,
  SHELL_CAPTURE_MAX_FILES,
  lateText,
  tooLargeText,
  type ShellCaptureResult,
  type ShellCaptureStart,
  type ShellChange
} from './limits'

/** A workspace found too large is not tried again for this long. */
const TOO_LARGE_RETRY_MS = 10 * 60_000
const GIT_TIMEOUT_MS = 120_000
const TOO_LARGE_MARK = 'too-large'

/**
 * Changes made by shell commands, caught the way Cline does it: a shadow git repository (in the
 * app's data folder, out of the model's reach) indexes the workspace before and after the
 * command; the two indexes name the changed files and the objects hold their old content. The
 * index is refreshed incrementally (stat data, `core.untrackedCache`), so a warm capture costs a
 * stat walk, not a read of every file. The user's own repository and git settings are never
 * touched (no global/system config, no hooks, no fsmonitor). Bounded: a snapshot that takes
 * longer than the budget or a workspace of more than SHELL_CAPTURE_MAX_FILES files is not
 * captured, and the result says so; on any git failure nothing is captured.
 */
export async function startGitCapture(
  dataDir: string,
  workspaceDir: string,
  options: { budgetMs?: number; maxFiles?: number } = {}
): Promise<ShellCaptureStart> {
  const budgetMs = options.budgetMs ?? SHELL_CAPTURE_BUDGET_MS
  const maxFiles = options.maxFiles ?? SHELL_CAPTURE_MAX_FILES
  const key = createHash('sha256').update(workspaceDir).digest('hex').slice(0, 16)
  const gitDir = join(dataDir, key)
  const git = shadowGit(gitDir, workspaceDir, dataDir)
  try {
    if (await markedTooLarge(gitDir)) return { capture: null, notRecorded: tooLargeText(maxFiles) }
    if (existsSync(join(gitDir, 'index.lock')))
      return { capture: null, notRecorded: 'an earlier snapshot of this workspace is still being built' }
    if (!existsSync(join(gitDir, 'HEAD'))) {
      await mkdir(gitDir, { recursive: true })
      await git(['init', '--quiet'])
      await mkdir(join(gitDir, 'info'), { recursive: true })
      await writeFile(join(gitDir, 'info', 'exclude'), `${SHELL_CAPTURE_EXCLUDES}\n`)
    }
    const added = await withinBudget(addAll(git, gitDir), budgetMs)
    if (added === 'late') return { capture: null, notRecorded: lateText('before', budgetMs) }
    const before = await readIndex(join(gitDir, 'index'))
    if (before.size > maxFiles) {
      await writeFile(join(gitDir, TOO_LARGE_MARK), String(Date.now()))
      return { capture: null, notRecorded: tooLargeText(maxFiles) }
    }
    return { capture: { finish: () => changesSince(git, gitDir, before, budgetMs) } }
  } catch (error) {
    return { capture: null, notRecorded: `the workspace snapshot failed (${messageOf(error)})` }
  }
}

type Git = (args: string[], input?: string) => Promise<Buffer>

function shadowGit(gitDir: string, workTree: string, home: string): Git {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_DIR: gitDir,
    GIT_WORK_TREE: workTree,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    LC_ALL: 'C'
  }
  const settings = [
    'core.fsmonitor=false',
    'core.hooksPath=/dev/null',
    'core.autocrlf=false',
    // Unchanged folders are not listed again for untracked files: the warm index is a stat walk.
    'core.untrackedCache=true',
    // The index this module parses (readIndex) is version 2.
    'index.version=2',
    'gc.auto=0'
  ].flatMap((setting) => ['-c', setting])
  return (args, input) =>
    new Promise((resolve, reject) => {
      const child = execFile(
        'git',
        [...settings, ...args],
        { cwd: workTree, env, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: GIT_TIMEOUT_MS },
        (error, stdout) => (error ? reject(error) : resolve(stdout))
      )
      if (input !== undefined) child.stdin?.end(input)
    })
}

/**
 * Brings the shadow index up to the workspace; a file that cannot be read is left as it was.
 * Fails when the index is locked (a snapshot still running in the background): an index that
 * is not the workspace's state now must never stand for "before", or every file would look new.
 */
async function addAll(git: Git, gitDir: string): Promise<void> {
  if (existsSync(join(gitDir, 'index.lock'))) throw new Error('a snapshot is still being built')
  await git(['add', '--all', '--ignore-errors', '--', '.']).catch((error: unknown) => {
    if (existsSync(join(gitDir, 'index.lock')) || /index\.lock/.test(String((error as Error)?.message)))
      throw error
  })
  if (!existsSync(join(gitDir, 'index'))) throw new Error('git wrote no index')
}

/** Resolves 'late' when `work` outlives the budget; the work itself goes on (its outcome is ignored). */
async function withinBudget(work: Promise<unknown>, budgetMs: number): Promise<'done' | 'late'> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), budgetMs)))
  try {
    // A late run's failure is nobody's business; an early one's is the caller's.
    work.catch(() => undefined)
    return await Promise.race([work.then(() => 'done' as const), late])
  } finally {
    clearTimeout(timer)
  }
}

async function changesSince(
  git: Git,
  gitDir: string,
  before: Map<string, IndexEntry>,
  budgetMs: number
): Promise<ShellCaptureResult> {
  try {
    if ((await withinBudget(addAll(git, gitDir), budgetMs)) === 'late')
      return { changes: [], notRecorded: lateText('after', budgetMs) }
    const after = await readIndex(join(gitDir, 'index'))
    const changed: Array<{ path: string; previous?: IndexEntry }> = []
    for (const [path, entry] of after) {
      const previous = before.get(path)
      if (!previous) changed.push({ path })
      else if (previous.oid !== entry.oid || previous.mode !== entry.mode) changed.push({ path, previous })
    }
    for (const [path, previous] of before) if (!after.has(path)) changed.push({ path, previous })
    changed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    const kept = changed.slice(0, MAX_CHANGED_FILES)
    const contents = await previousContents(
      git,
      kept.flatMap((c) => (c.previous ? [c.previous] : []))
    )
    const changes = kept.map(({ path, previous }): ShellChange => {
      if (!previous) return { path, previousContent: null }
      return { path, ...(contents.get(previous.oid) ?? { previousContent: null, notKept: 'too_large' }) }
    })
    return changed.length > MAX_CHANGED_FILES
      ? {
          changes,
          notRecorded: `the command changed ${changed.length} files; only the first ${MAX_CHANGED_FILES} were recorded for undo`
        }
      : { changes }
  } catch (error) {
    return { changes: [], notRecorded: `the look after the command failed (${messageOf(error)})` }
  }
}

type Previous = Pick<ShellChange, 'previousContent' | 'notKept'>

/**
 * Old contents by object id, read in one `cat-file --batch` run. The index gave each file's
 * size, so large ones are not read at all; binary ones are not kept.
 */
async function previousContents(git: Git, entries: IndexEntry[]): Promise<Map<string, Previous>> {
  const result = new Map<string, Previous>()
  const small = new Set<string>()
  for (const entry of entries)
    if (entry.size <= SHELL_CAPTURE_MAX_FILE_BYTES) small.add(entry.oid)
    else result.set(entry.oid, { previousContent: null, notKept: 'too_large' })
  if (small.size === 0) return result
  const blobs = parseBatch(await git(['cat-file', '--batch'], [...small].join('\n') + '\n'))
  for (const oid of small) {
    const content = blobs.get(oid)
    if (content === undefined || content.length > SHELL_CAPTURE_MAX_FILE_BYTES)
      result.set(oid, { previousContent: null, notKept: 'too_large' })
    else if (content.includes(0)) result.set(oid, { previousContent: null, notKept: 'binary' })
    else result.set(oid, { previousContent: content.toString('utf8') })
  }
  return result
}

/** `<oid> blob <size>\n<content>\n` records, one after another. */
function parseBatch(out: Buffer): Map<string, Buffer> {
  const blobs = new Map<string, Buffer>()
  let at = 0
  while (at < out.length) {
    const eol = out.indexOf(10, at)
    if (eol < 0) break
    const [oid, type, size] = out.subarray(at, eol).toString().split(' ')
    if (type !== 'blob') {
      at = eol + 1
      continue
    }
    const start = eol + 1
    const end = start + Number(size)
    blobs.set(oid, out.subarray(start, end))
    at = end + 1
  }
  return blobs
}

interface IndexEntry {
  path: string
  mode: number
  oid: string
  /** The file's size when it was indexed (the blob's size: no line-ending conversion here). */
  size: number
}

const GITLINK = 0o160000

/**
 * The path -> (mode, object id) of a version 2 or 3 git index (SHA-1), stage 0 only. Nested
 * repositories (gitlinks) are left out: their content is not the workspace's files.
 */
async function readIndex(file: string): Promise<Map<string, IndexEntry>> {
  const entries = new Map<string, IndexEntry>()
  if (!existsSync(file)) return entries
  const data = await readFile(file)
  if (data.toString('latin1', 0, 4) !== 'DIRC') throw new Error('not a git index')
  const version = data.readUInt32BE(4)
  if (version !== 2 && version !== 3) throw new Error(`git index version ${version}`)
  const count = data.readUInt32BE(8)
  let at = 12
  for (let i = 0; i < count; i++) {
    const mode = data.readUInt32BE(at + 24)
    const size = data.readUInt32BE(at + 36)
    const oid = data.toString('hex', at + 40, at + 60)
    const flags = data.readUInt16BE(at + 60)
    const pathStart = at + 62 + (version === 3 && flags & 0x4000 ? 2 : 0)
    const pathEnd = data.indexOf(0, pathStart)
    const path = data.toString('utf8', pathStart, pathEnd)
    // Entries are padded with 1-8 NULs to a multiple of 8 bytes.
    at += Math.ceil((pathEnd - at + 1) / 8) * 8
    if ((flags & 0x3000) !== 0 || mode === GITLINK) continue
    entries.set(path, { path, mode, oid, size })
  }
  return entries
}

async function markedTooLarge(gitDir: string): Promise<boolean> {
  const marked = await stat(join(gitDir, TOO_LARGE_MARK)).catch(() => null)
  return !!marked && Date.now() - marked.mtimeMs < TOO_LARGE_RETRY_MS
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message.split('\n')[0] : String(error))
