import { lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'

/**
 * A copy of the workspace's `.git/info/exclude` that also names the stubs standing in for
 * missing protected entries, to mount over the real one inside the sandbox, so `git status`
 * there does not list `.envrc`, `.vscode`… as new files. Null when the workspace has no such
 * file (not a repository, or a worktree whose git folder lives elsewhere).
 */
export function gitExcludeWithStubs(
  workspaceDir: string,
  stubs: string[]
): { file: string; remove: () => void } | null {
  if (stubs.length === 0) return null
  const exclude = join(workspaceDir, '.git', 'info', 'exclude')
  let original: string
  try {
    if (!lstatSync(exclude).isFile()) return null
    original = readFileSync(exclude, 'utf8')
  } catch {
    return null
  }
  const dir = mkdtempSync(join(tmpdir(), 'deepchat-sandbox-'))
  const file = join(dir, 'exclude')
  const lines = stubs.map((stub) => `/${relative(workspaceDir, stub)}`)
  writeFileSync(
    file,
    `${original.replace(/\n?$/, '\n')}# Stand-ins the sandbox mounts for protected entries that do not exist\n${lines.join('\n')}\n`
  )
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
