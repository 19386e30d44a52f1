import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

const root = join(import.meta.dirname, '..', '..', '..')
export const HOST_ENTRY = join(root, 'out', 'main', 'host.js')

export interface ServedHost {
  url: string
  origin: string
  output: string[]
  stop(): Promise<void>
  /** Ends the host with SIGKILL (a crash: no shutdown code runs). */
  kill(): Promise<void>
}

/** Runs the built headless host (`npm run serve` without the build step) on a free port. */
/** `omitPort`: no --port, as `npm run serve` is usually run (the host reuses last time's port). */
export async function serve(
  dataDir: string,
  extraEnv: NodeJS.ProcessEnv = {},
  options: { cwd?: string; omitPort?: boolean } = {}
): Promise<ServedHost> {
  if (!existsSync(HOST_ENTRY)) throw new Error(`${HOST_ENTRY} is missing: run npm run build first`)
  const portArgs = options.omitPort ? [] : ['--port', '0']
  const child: ChildProcess = spawn(process.execPath, [HOST_ENTRY, ...portArgs, '--data-dir', dataDir], {
    cwd: options.cwd,
    env: { ...process.env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const output: string[] = []
  child.stderr?.on('data', (chunk) => output.push(String(chunk)))
  const url = await new Promise<string>((resolve, reject) => {
    // A deadline, not a wait: resolves at the host's "Open:" line. Generous because a loaded
    // 2-core machine running two e2e workers has taken over 15 s to start one.
    const timer = setTimeout(() => reject(new Error(`host did not start:\n${output.join('')}`)), 45_000)
    child.once('exit', (code) => reject(new Error(`host exited with ${code}:\n${output.join('')}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line)
      const match = /^Open: (\S+)/.exec(line)
      if (match) {
        clearTimeout(timer)
        resolve(match[1])
      }
    })
  })
  return {
    url,
    origin: new URL(url).origin,
    output,
    stop: () => endWith(child, 'SIGTERM'),
    kill: () => endWith(child, 'SIGKILL')
  }
}

function endWith(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill(signal)
  })
}
