import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/** A file bigger than this is not kept: the turn lists it as changed but cannot put it back. */
export const SHELL_CAPTURE_MAX_FILE_BYTES = 512 * 1024
/** A command that changes more files than this (a build, an install) is recorded only this far. */
const MAX_CHANGED_FILES = 200
const GIT_TIMEOUT_MS = 30_000
const EXCLUDES = ['node_modules/', '.venv/', '__pycache__/', '.DS_Store'].join('\n')

/** What a shell command changed in the workspace: each file's content before it ran. */
export interface ShellChange {
  /** Path relative to the workspace. */
  path: string
  previousContent: string | null
  /** The previous content was not kept (too large, or not text). */
  notKept?: 'too_large' | 'binary'
}

export interface ShellCapture {
  /** Compares the workspace with the moment the capture started. */
  finish(): Promise<ShellChange[]>
}

/**
 * Changes made by shell commands, caught the way Cline does it: a shadow git repository (in the
 * app's data folder, out of the model's reach) indexes the workspace before and after the
 * command; the trees' difference names the files and the first tree holds their old content.
 * The user's own repository and git settings are never touched (no global/system config, no
 * hooks, no fsmonitor). Without git, or on any git failure, nothing is captured (null).
 */
export async function startShellCapture(dataDir: string, workspaceDir: string): Promise<ShellCapture | null> {
  const key = createHash('sha256').update(workspaceDir).digest('hex').slice(0, 16)
  const git = shadowGit(join(dataDir, key), workspaceDir, dataDir)
  try {
    if (!existsSync(join(dataDir, key, 'HEAD'))) {
      await mkdir(join(dataDir, key), { recursive: true })
      await git(['init', '--quiet'])
      await mkdir(join(dataDir, key, 'info'), { recursive: true })
      await writeFile(join(dataDir, key, 'info', 'exclude'), `${EXCLUDES}\n`)
    }
    const before = await indexTree(git)
    return { finish: () => changesSince(git, before).catch(() => []) }
  } catch {
    return null
  }
}

type Git = (args: string[]) => Promise<Buffer>

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
  const safety = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'core.autocrlf=false']
  return (args) =>
    new Promise((resolve, reject) => {
      execFile(
        'git',
        [...safety, ...args],
        { cwd: workTree, env, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: GIT_TIMEOUT_MS },
        (error, stdout) => (error ? reject(error) : resolve(stdout))
      )
    })
}

async function indexTree(git: Git): Promise<string> {
  await git(['add', '--all', '--ignore-errors', '--', '.']).catch(() => undefined)
  return (await git(['write-tree'])).toString().trim()
}

async function changesSince(git: Git, before: string): Promise<ShellChange[]> {
  const after = await indexTree(git)
  if (after === before) return []
  const out = (
    await git(['diff-tree', '-r', '-z', '--no-renames', '--name-status', before, after])
  ).toString()
  const parts = out.split('\0').filter(Boolean)
  const changes: ShellChange[] = []
  for (let i = 0; i + 1 < parts.length && changes.length < MAX_CHANGED_FILES; i += 2) {
    const [status, path] = [parts[i], parts[i + 1]]
    changes.push(status === 'A' ? { path, previousContent: null } : await previousOf(git, before, path))
  }
  return changes
}

async function previousOf(git: Git, tree: string, path: string): Promise<ShellChange> {
  const size = Number((await git(['cat-file', '-s', `${tree}:${path}`])).toString().trim())
  if (size > SHELL_CAPTURE_MAX_FILE_BYTES) return { path, previousContent: null, notKept: 'too_large' }
  const content = await git(['cat-file', 'blob', `${tree}:${path}`])
  if (content.includes(0)) return { path, previousContent: null, notKept: 'binary' }
  return { path, previousContent: content.toString('utf8') }
}
