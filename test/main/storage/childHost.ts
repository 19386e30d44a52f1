import { spawn, type ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import WebSocket from 'ws'
import { build } from 'vite'
import { BridgeClient } from '../../../src/renderer/src/api/bridge'
import { websocketTransport } from '../../../src/renderer/src/api/transports'

const root = resolve(import.meta.dirname, '..', '..', '..')

/**
 * The headless host built from the source tree into a folder of this test process (under
 * node_modules, so its packages resolve), not `out/`, which other builds share. Built once.
 */
let built: Promise<string> | undefined
export function buildTestHost(): Promise<string> {
  built ??= (async () => {
    const outDir = join(root, 'node_modules', '.cache', `test-host-${process.pid}`, 'main')
    await build({
      configFile: false,
      logLevel: 'warn',
      root,
      resolve: { alias: { '@shared': join(root, 'src/shared') } },
      define: { __APP_VERSION__: JSON.stringify('0.0.0-test') },
      build: {
        ssr: join(root, 'src/main/host/index.ts'),
        outDir,
        emptyOutDir: true,
        minify: false,
        rolldownOptions: { output: { entryFileNames: 'host.js', format: 'es' } }
      }
    })
    return join(outDir, 'host.js')
  })()
  return built
}

/** After a test file: the next file that needs the host builds it again. */
export function removeTestHost(): void {
  built = undefined
  rmSync(join(root, 'node_modules', '.cache', `test-host-${process.pid}`), { recursive: true, force: true })
}

export interface ChildHost {
  url: string
  origin: string
  pid: number
  /** Everything the host printed (stdout lines and stderr chunks). */
  output: string[]
  bridge: BridgeClient
  stop(): Promise<void>
}

export interface SpawnOptions {
  /** A command the host runs under (`prlimit --fsize=…`, `setpriv --reuid=…`). */
  wrapper?: string[]
  env?: NodeJS.ProcessEnv
}

function spawnHost(entry: string, dataDir: string, options: SpawnOptions): ChildProcess {
  const [command, ...args] = [
    ...(options.wrapper ?? []),
    process.execPath,
    entry,
    '--port',
    '0',
    '--data-dir',
    dataDir
  ]
  return spawn(command, args, {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
}

/** Starts a child host and waits for its URL; a host that exits first rejects with its output. */
export async function startChildHost(dataDir: string, options: SpawnOptions = {}): Promise<ChildHost> {
  const child = spawnHost(await buildTestHost(), dataDir, options)
  const output: string[] = []
  child.stderr?.on('data', (chunk) => output.push(String(chunk)))
  const url = await new Promise<string>((resolveUrl, reject) => {
    // A host that did not start in time is killed: a slow start must not leave it running.
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`host did not start:\n${output.join('')}`))
    }, 20_000)
    child.once('exit', (code) => reject(new Error(`host exited with ${code}:\n${output.join('')}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line)
      const match = /^Open: (\S+)/.exec(line)
      if (match) {
        clearTimeout(timer)
        resolveUrl(match[1])
      }
    })
  })
  const parsed = new URL(url)
  const token = new URLSearchParams(parsed.hash.slice(1)).get('token') ?? ''
  const bridge = new BridgeClient(
    websocketTransport({
      url: `ws://${parsed.host}/bridge?token=${encodeURIComponent(token)}`,
      WebSocketImpl: WebSocket as unknown as typeof globalThis.WebSocket
    })
  )
  return {
    url,
    origin: parsed.origin,
    pid: child.pid!,
    output,
    bridge,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done()
        child.once('exit', () => done())
        child.kill('SIGTERM')
      })
  }
}

/** Runs a host that is expected to end by itself: its exit code and what it printed. */
export async function runHostToExit(
  dataDir: string,
  options: SpawnOptions = {}
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnHost(await buildTestHost(), dataDir, options)
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk) => (stdout += String(chunk)))
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)))
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
  const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)))
  clearTimeout(timer)
  return { code, stdout, stderr }
}
