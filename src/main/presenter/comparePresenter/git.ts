import { execFile } from 'node:child_process'

/**
 * Runs git without the user's hooks or fsmonitor (a compare's worktrees and baselines are the
 * app's own bookkeeping; nothing of the repository's configuration should run because of it),
 * never prompting. Rejects with git's own message.
 */
export function git(
  args: readonly string[],
  options: { cwd: string; input?: string | Buffer; maxBuffer?: number }
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'core.quotePath=false', ...args],
      {
        cwd: options.cwd,
        encoding: 'utf8',
        maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' }
      },
      (error, stdout, stderr) => {
        if (error) {
          const detail = String(stderr || error.message).trim()
          reject(new Error(`git ${args[0] === '--git-dir' ? args[2] : args[0]}: ${detail}`))
        } else resolve(stdout)
      }
    )
    if (options.input !== undefined) child.stdin?.end(options.input)
  })
}

/** Like `git`, but a failure is an answer (null), not an error. */
export async function gitOrNull(args: readonly string[], options: { cwd: string }): Promise<string | null> {
  try {
    return await git(args, options)
  } catch {
    return null
  }
}
