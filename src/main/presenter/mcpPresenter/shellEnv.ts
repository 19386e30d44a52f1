import { spawn } from 'node:child_process'
import { delimiter } from 'node:path'
import { homedir } from 'node:os'
import { childEnvironment } from '../permission/childEnvironment'

const MARKER = '__DEEPCHAT_PATH__'

/**
 * Reads PATH from the user's login shell. A GUI app launched from the dock gets a bare PATH, so
 * without this `npx`, `uvx` or nvm's `node` are not found. Interactive rc files may print or
 * hang, hence the markers and the timeout; any failure falls back to the app's own PATH.
 */
export function readLoginShellPath(timeoutMs = 5_000): Promise<string | undefined> {
  if (process.platform === 'win32') return Promise.resolve(undefined)
  // A test-only knob: the test run names a plain shell so a login does not run the test
  // machine's dotfiles (vitest.config.ts).
  const shell = process.env.DEEPCHAT_TEST_LOGIN_SHELL || process.env.SHELL || '/bin/sh'
  return new Promise((resolve) => {
    let output = ''
    let done = false
    const finish = (value: string | undefined) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve(value)
    }
    // Its own process group, so a profile that starts something long-lived (or hangs) can be
    // killed as a whole; otherwise a grandchild holding stdout keeps us waiting.
    const child = spawn(shell, ['-ilc', `printf '%s%s%s' ${MARKER} "$PATH" ${MARKER}`], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, DISABLE_AUTO_UPDATE: 'true' }
    })
    const timer = setTimeout(() => {
      // TERM first: profiles hold lock files (pyenv's rehash lock) that their EXIT traps remove;
      // a KILL leaves them behind and every later shell of the user waits on them.
      signalGroup(child.pid, 'SIGTERM')
      setTimeout(() => signalGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS).unref()
      finish(undefined)
    }, timeoutMs)
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      const match = new RegExp(`${MARKER}(.*?)${MARKER}`, 's').exec(output)
      if (match) finish(match[1] || undefined)
    })
    child.once('error', () => finish(undefined))
    child.once('close', () => finish(undefined))
  })
}

const KILL_GRACE_MS = 3_000

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  try {
    if (pid) process.kill(-pid, signal)
  } catch {
    // already gone
  }
}

/** Login-shell PATH first, then anything from the app's PATH it lacks, without duplicates. */
export function mergePaths(...paths: (string | undefined)[]): string {
  const seen = new Set<string>()
  const parts: string[] = []
  for (const path of paths) {
    for (const part of (path ?? '').split(delimiter)) {
      if (part && !seen.has(part)) {
        seen.add(part)
        parts.push(part)
      }
    }
  }
  return parts.join(delimiter)
}

/**
 * The environment children start with (stdio servers, ACP agents, `exec`): the allowlisted
 * variables of the app's env (`childEnvironment`) with PATH from the login shell. The shell is
 * read once and cached (it is slow to start).
 */
export function createShellEnvResolver(
  options: { timeoutMs?: number } = {}
): () => Promise<Record<string, string>> {
  let loginPath: Promise<string | undefined> | undefined
  return async () => {
    loginPath ??= readLoginShellPath(options.timeoutMs)
    const path = await loginPath
    const env = childEnvironment(process.env)
    // Windows spells it `Path`; one PATH key, whatever the case.
    for (const name of Object.keys(env)) if (name.toUpperCase() === 'PATH') delete env[name]
    env.PATH = mergePaths(path, process.env.PATH)
    return env
  }
}

/**
 * `resolve`'s environment plus the app's variables the user allowed by name in Settings, read
 * on every call, so a change counts from the next start.
 */
export function withAllowedVariables(
  resolve: () => Promise<Record<string, string>>,
  allowedVariables: () => readonly string[]
): () => Promise<Record<string, string>> {
  return async () => ({ ...childEnvironment(process.env, allowedVariables()), ...(await resolve()) })
}

/** Expands `~`, `${VAR}` and `$VAR` in a stdio command or argument. */
export function expandVariables(value: string, env: Record<string, string | undefined>): string {
  const withHome = value === '~' || value.startsWith('~/') ? homedir() + value.slice(1) : value
  return withHome.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, braced, bare) => {
      const found = env[braced ?? bare]
      return found ?? whole
    }
  )
}
