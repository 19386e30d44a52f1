// Wall time to start 10 stdio MCP servers in parallel through McpPresenter. Gated: the parallel
// start against the floor (below) <= 1.1x; reported: against 1.5x the slowest single start.
//
// Each case also starts the same ten servers without McpPresenter or the SDK (spawn plus a raw
// initialize / tools/list exchange): that floor is what the machine itself charges for ten
// processes starting at once, so the line "presenter adds" is our own share of a parallel start.
// The parallel start runs nine times, each beside a floor start (who goes first alternates);
// the median of the nine paired ratios counts.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { createNodePlatform } from '../src/main/platform/nodePlatform'
import { SqlitePresenter } from '../src/main/presenter/sqlitePresenter'
import { ConfigPresenter } from '../src/main/presenter/configPresenter'
import { Workspaces } from '../src/main/presenter/sessionPresenter/workspaces'
import { EventHub } from '../src/main/bridge/events'
import { McpPresenter } from '../src/main/presenter/mcpPresenter'
import { createShellEnvResolver } from '../src/main/presenter/mcpPresenter/shellEnv'
import { report } from './lib'

const COUNT = 10
const fixtures = resolve(import.meta.dirname, '../test/fixtures/mcp')
const shellEnv = createShellEnvResolver()

interface BenchCase {
  label: string
  command: string
  args: string[]
  env: Record<string, string>
  /** Whether this case decides the exit code (see the note printed at the end). */
}

// Enough rounds that one burst of load elsewhere does not decide the median (3 let the floor
// vary 912-1,515 ms between rounds).
const ROUNDS = 9

/** One way of starting the ten servers: through McpPresenter, or by hand (the floor). */
interface Rig {
  /** Starts one server; resolves with its stop. */
  startOne(id: string): Promise<() => Promise<void>>
  /** Starts all ten at once and returns the wall time; stopAll() ends them. */
  startAll(): Promise<number>
  stopAll(): Promise<void>
  close(): Promise<void>
}

const ids = Array.from({ length: COUNT }, (_, i) => `s${i}`)

async function presenterRig(c: BenchCase): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-bench-'))
  const platform = createNodePlatform({ dataDir: dir, log: () => {} })
  const events = new EventHub()
  const sqlite = new SqlitePresenter({ file: join(dir, 'bench.db') })
  const workspaces = new Workspaces({ dataDir: dir })
  const config = new ConfigPresenter({
    sqlite,
    secrets: platform.secrets,
    events,
    validateWorkspace: (path) => workspaces.validate(path)
  })
  const mcp = new McpPresenter({ config, events, shellEnv }) // resolved at launch, as in the app
  for (const id of ids)
    await mcp.addServer({
      id,
      name: id,
      type: 'stdio',
      command: c.command,
      args: c.args,
      env: c.env,
      enabled: false
    })
  return {
    async startOne(id) {
      const view = await mcp.startServer(id)
      if (view.status.state !== 'running') throw new Error(`${id} did not start: ${view.status.lastError}`)
      return async () => void (await mcp.stopServer(id))
    },
    async startAll() {
      const begin = performance.now()
      const views = await Promise.all(ids.map((id) => mcp.startServer(id)))
      const took = performance.now() - begin
      if (views.some((v) => v.status.state !== 'running'))
        throw new Error('a server failed to start in parallel')
      return took
    },
    async stopAll() {
      await Promise.all(ids.map((id) => mcp.stopServer(id)))
    },
    async close() {
      await mcp.dispose()
      sqlite.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** Spawns the server and runs initialize, initialized and tools/list by hand: no SDK, no presenter. */
async function rawStart(c: BenchCase, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(c.command, c.args, { env: { ...env, ...c.env }, stdio: ['pipe', 'pipe', 'ignore'] })
  const send = (message: object) => child.stdin?.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n')
  const lines = createInterface({ input: child.stdout! })
  await new Promise<void>((done, fail) => {
    child.once('error', fail)
    child.once('exit', (code) => fail(new Error(`server exited with ${code}`)))
    lines.on('line', (line) => {
      const id = (JSON.parse(line) as { id?: number }).id
      if (id === 1) {
        send({ method: 'notifications/initialized' })
        send({ id: 2, method: 'tools/list', params: {} })
      } else if (id === 2) done()
    })
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } }
    })
  })
  child.removeAllListeners('exit')
  return child
}

async function stopRaw(child: ChildProcess): Promise<void> {
  const exited = new Promise((done) => child.once('exit', done))
  child.kill()
  await exited
}

async function rawRig(c: BenchCase): Promise<Rig> {
  const env = await shellEnv()
  let running: ChildProcess[] = []
  return {
    async startOne() {
      const child = await rawStart(c, env)
      return () => stopRaw(child)
    },
    async startAll() {
      const begin = performance.now()
      running = await Promise.all(ids.map(() => rawStart(c, env)))
      return performance.now() - begin
    },
    async stopAll() {
      await Promise.all(running.map(stopRaw))
      running = []
    },
    async close() {}
  }
}

/** The first start (one-off costs: shown, not the baseline), then the slowest of ten single starts. */
async function singles(rig: Rig): Promise<{ first: number; slowest: number }> {
  const warm = performance.now()
  await (
    await rig.startOne(ids[0])
  )()
  const first = performance.now() - warm
  let slowest = 0
  for (const id of ids) {
    const begin = performance.now()
    const stop = await rig.startOne(id)
    slowest = Math.max(slowest, performance.now() - begin)
    await stop()
  }
  return { first, slowest }
}

const ms = (value: number) => `${value.toFixed(0)} ms`
const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

async function run(c: BenchCase): Promise<boolean> {
  const presenter = await presenterRig(c)
  const floor = await rawRig(c)
  const presenterSingles = await singles(presenter)
  const floorSingles = await singles(floor)
  // Parallel rounds alternate between the two, so a burst of load elsewhere hits both alike.
  const presenterRuns: number[] = []
  const floorRuns: number[] = []
  // Each round's ratio compares two starts made back to back (who goes first alternates), so
  // load that comes and goes hits both sides of a ratio alike; the gate is their median.
  const pairRatios: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const startPresenter = async () => {
      presenterRuns.push(await presenter.startAll())
      await presenter.stopAll()
    }
    const startFloor = async () => {
      floorRuns.push(await floor.startAll())
      await floor.stopAll()
    }
    if (round % 2 === 0) {
      await startPresenter()
      await startFloor()
    } else {
      await startFloor()
      await startPresenter()
    }
    pairRatios.push(presenterRuns[round] / floorRuns[round])
  }
  await presenter.close()
  const parallel = medianOf(presenterRuns)
  const floorParallel = medianOf(floorRuns)
  console.log(`\n${c.label}`)
  console.log(
    `  presenter: first start ${ms(presenterSingles.first)} (not in the baseline), slowest single ${ms(presenterSingles.slowest)}, ` +
      `${COUNT} in parallel ${presenterRuns.map(ms).join(' / ')} (median ${ms(parallel)})`
  )
  console.log(
    `  floor (spawn + raw handshake, no SDK/presenter): slowest single ${ms(floorSingles.slowest)}, ${COUNT} in parallel ` +
      `${floorRuns.map(ms).join(' / ')} (median ${ms(floorParallel)}) = ${(floorParallel / floorSingles.slowest).toFixed(2)}x`
  )
  console.log(`  presenter adds ${ms(parallel - floorParallel)} to the median parallel start over the floor`)
  // The gate is what our code adds: the same ten servers started by hand in the same run are the floor.
  console.log(`  ratio of medians ${(parallel / floorParallel).toFixed(2)}x`)
  const overFloor = report(
    `  ${COUNT} parallel / floor parallel (median of ${ROUNDS} paired rounds)`,
    medianOf(pairRatios),
    'x',
    {
      max: 1.1
    }
  )
  // Not a gate: on 2 cores ten CPU-bound servers cannot start as fast as one, with or without us.
  console.log(
    `  ${COUNT} parallel (median) / slowest single: ${(parallel / presenterSingles.slowest).toFixed(2)}x (info, the floor's is ${(floorParallel / floorSingles.slowest).toFixed(2)}x)`
  )
  return overFloor
}

await shellEnv() // resolved once at launch in the app too; not part of a server's start
console.log(`${availableParallelism()} CPUs`)
const cases: BenchCase[] = [
  // No runtime to load: what a parallel start costs our side (spawn, handshake, catalog, state).
  {
    label: 'shell server (no Node), 800 ms startup wait',
    command: '/bin/sh',
    args: [join(fixtures, 'shellServer.sh')],
    env: { STARTUP_DELAY_S: '0.8' }
  },
  {
    label: 'minimal Node server (no SDK), 800 ms startup wait',
    command: process.execPath,
    args: [join(fixtures, 'minimalServer.mjs')],
    env: { STARTUP_DELAY_MS: '800' }
  },
  {
    label: 'SDK server, 800 ms startup wait',
    command: process.execPath,
    args: [join(fixtures, 'slowStartServer.mjs')],
    env: { STARTUP_DELAY_MS: '800' }
  },
  {
    label: 'SDK server, no startup wait (CPU-bound)',
    command: process.execPath,
    args: [join(fixtures, 'testServer.mjs')],
    env: {}
  }
]
const results: boolean[] = []
for (const c of cases) results.push(await run(c))
console.log(
  '\nEvery case is gated on the parallel start over the floor (<= 1.1x): that is what our code adds. The absolute ' +
    '1.5x against the slowest single start is reported: with Node and the SDK loaded ten times, the CPU alone can exceed it.'
)
process.exitCode = results.every(Boolean) ? 0 : 1
