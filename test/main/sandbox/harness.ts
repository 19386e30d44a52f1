import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { spawn, type ChildProcess } from 'node:child_process'
import { afterEach, expect } from 'vitest'
import { Sandbox } from '../../../src/main/presenter/sandbox'
import type { SandboxPlan } from '../../../src/main/presenter/sandbox/types'
import type { AppDataBoundary } from '../../../src/main/presenter/permission/boundary'
import {
  BackgroundProcessManager,
  type ProcessInfo
} from '../../../src/main/presenter/toolPresenter/agentTools/processManager'

export const onLinux = process.platform === 'linux'
export const SECRET_KEY_TEXT = 'BEGIN FAKE PRIVATE KEY'
export const SECRET_ENV_VALUE = 'sk-test-do-not-leak'

/** Folders under /var/tmp: visible (read-only) inside the sandbox, unlike /tmp, which is private there. */
export function useVisibleTempDirs(): () => string {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const dir = mkdtempSync('/var/tmp/deepchat-sandbox-test-')
    dirs.push(dir)
    return dir
  }
}

/** A fake user: home with a private key and a .netrc, a project in home, the app's data folder with its secrets. */
export interface World {
  root: string
  home: string
  project: string
  appData: AppDataBoundary
  logDir: string
}

export function makeWorld(root: string, options: { dataDir?: string } = {}): World {
  const home = join(root, 'home')
  mkdirSync(join(home, '.ssh'), { recursive: true })
  writeFileSync(join(home, '.ssh', 'id_rsa'), `-----${SECRET_KEY_TEXT}-----\n`)
  writeFileSync(join(home, '.netrc'), `machine example.com password ${SECRET_KEY_TEXT}\n`)
  const project = join(home, 'project')
  mkdirSync(project)
  writeFileSync(join(project, 'readme.txt'), 'hello from the project\n')
  const dataDir = options.dataDir ?? join(home, '.config', 'DeepChat')
  mkdirSync(join(dataDir, 'scratch'), { recursive: true })
  writeFileSync(join(dataDir, 'secrets.json'), `{"openai": "${SECRET_KEY_TEXT}"}`)
  writeFileSync(join(dataDir, 'deepchat.db'), `sqlite ${SECRET_KEY_TEXT}`)
  const appData = {
    dataDir,
    secretsFiles: [join(dataDir, 'secrets.json')],
    scratchRoot: join(dataDir, 'scratch')
  }
  return { root, home, project, appData, logDir: join(root, 'logs') }
}

export interface Run extends ProcessInfo {
  output: string
}

/**
 * A process manager whose sandbox sees `world`'s home and data folder; the parent env carries a
 * secret; `allowedVariables` are the names the user allowed in Settings.
 */
export function managerFor(
  world: World,
  env: NodeJS.ProcessEnv = {},
  allowedVariables: string[] = []
): BackgroundProcessManager {
  const sandbox = new Sandbox({ home: world.home, appData: world.appData })
  return new BackgroundProcessManager({
    sandbox,
    baseEnv: async () => ({ ...process.env, OPENAI_API_KEY: SECRET_ENV_VALUE, CDPATH: '/', ...env }),
    allowedVariables: () => allowedVariables
  })
}

/** Runs `command` to completion (under `plan`, or on the host when undefined) and returns its info and output. */
export async function run(
  manager: BackgroundProcessManager,
  world: World,
  command: string,
  plan: SandboxPlan | undefined,
  cwd?: string
): Promise<Run> {
  const started = await manager.start({
    sessionId: 'test',
    command,
    cwd: cwd ?? plan?.workspaceDir ?? world.project,
    logDir: world.logDir,
    keepStdin: false,
    sandbox: plan
  })
  const outcome = await manager.waitForExitOrYield('test', started.processId, 60_000)
  expect(outcome).toBe('exited')
  const info = manager.info('test', started.processId)
  const output = manager.tail('test', started.processId, 1_000_000)
  manager.forget('test', started.processId)
  if (plan) expect(info.sandboxed, `not sandboxed: ${info.sandboxUnavailable}`).toBe(true)
  return { ...info, output }
}

/** Host pids whose command line is exactly `argv`. */
export function pidsOf(argv: string[]): number[] {
  const wanted = `${argv.join('\0')}\0`
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8') === wanted) found.push(Number(entry))
    } catch {
      // Exited meanwhile.
    }
  }
  return found
}

export function isAlive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // A zombie has exited; it only waits for its parent to collect it.
    return state.slice(state.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

const repoRoot = join(import.meta.dirname, '..', '..', '..')

/** Starts the stand-in host (fixtures/host.ts) and resolves with what it printed once its command started. */
export async function startHost(
  config: Record<string, unknown>
): Promise<{ host: ChildProcess; pid: number; sandboxed: boolean }> {
  const host = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'host.ts'), JSON.stringify(config)],
    {
      cwd: repoRoot,
      env: { ...process.env, TSX_TSCONFIG_PATH: join(repoRoot, 'tsconfig.node.json') },
      stdio: ['ignore', 'pipe', 'pipe']
    }
  )
  let stderr = ''
  host.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const line = await new Promise<string>((resolve, reject) => {
    let stdout = ''
    host.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0])
    })
    host.on('exit', (code) => reject(new Error(`host exited with ${code}: ${stderr}`)))
  })
  return { host, ...(JSON.parse(line) as { pid: number; sandboxed: boolean }) }
}
