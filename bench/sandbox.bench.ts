// What the OS sandbox adds to one command: `true` and `ls` run through BackgroundProcessManager
// with a sandbox plan against the same commands run on the host by the same manager, in the same
// run, alternating (goal: at most +15 ms per command, median). Linux with bwrap only. Then the
// scan for protected entries a writable run adds in a 2,000-folder workspace (goal: 30 ms).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Sandbox } from '../src/main/presenter/sandbox'
import { ProtectedGuard } from '../src/main/presenter/sandbox/protectedGuard'
import { BackgroundProcessManager } from '../src/main/presenter/toolPresenter/agentTools/processManager'
import { median, report } from './lib'

const RUNS = 60
const GOAL_ADDED_MS = 15
const GOAL_SCAN_MS = 30

const sandbox = new Sandbox()
const status = await sandbox.status()
if (!status.available) {
  console.log(`no sandbox here (${status.reason}); nothing to measure`)
  process.exit(process.platform === 'linux' ? 1 : 0)
}

const root = mkdtempSync(join(tmpdir(), 'sandbox-bench-'))
const workspace = join(root, 'ws')
mkdirSync(workspace)
for (let i = 0; i < 50; i++) writeFileSync(join(workspace, `file${i}.txt`), 'x')
const manager = new BackgroundProcessManager({ sandbox })
const plan = { workspaceDir: workspace, writableWorkspace: true }

async function runOnce(command: string, sandboxed: boolean): Promise<number> {
  const start = performance.now()
  const info = await manager.start({
    sessionId: 'bench',
    command,
    cwd: workspace,
    logDir: root,
    keepStdin: false,
    sandbox: sandboxed ? plan : undefined
  })
  await manager.waitForExitOrYield('bench', info.processId, 30_000)
  const elapsed = performance.now() - start
  const done = manager.info('bench', info.processId)
  manager.forget('bench', info.processId)
  if (done.exitCode !== 0 || done.sandboxed !== sandboxed)
    throw new Error(`${command} (sandboxed: ${sandboxed}) failed: ${JSON.stringify(done)}`)
  return elapsed
}

/** Alternates plain and sandboxed runs so load from other processes hits both alike. */
async function measure(command: string): Promise<[number[], number[]]> {
  for (let i = 0; i < 5; i++) {
    await runOnce(command, false)
    await runOnce(command, true)
  }
  const plain: number[] = []
  const boxed: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 === 0 ? [false, true] : [true, false]
    for (const sandboxed of order) (sandboxed ? boxed : plain).push(await runOnce(command, sandboxed))
  }
  return [plain.sort((a, b) => a - b), boxed.sort((a, b) => a - b)]
}

let pass = true
for (const command of ['true', 'ls']) {
  const [plain, boxed] = await measure(command)
  const added = median(boxed) - median(plain)
  console.log(
    `${command}: plain median ${median(plain).toFixed(1)} ms, sandboxed median ${median(boxed).toFixed(1)} ms, ratio ${(median(boxed) / median(plain)).toFixed(2)} x (${status.kind})`
  )
  pass =
    report(`sandbox adds per command, \`${command}\` (median)`, added, 'ms', { max: GOAL_ADDED_MS }) && pass
}

// What the scan for protected entries adds to a writable run (before and after it; read-only
// runs scan nothing), in a workspace of 2,000 folders whose index is warm, as between commands.
const big = join(root, 'big')
for (let i = 0; i < 40; i++)
  for (let j = 0; j < 50; j++) mkdirSync(join(big, `d${i}`, `e${j}`), { recursive: true })
const home = mkdtempSync(join(tmpdir(), 'sandbox-bench-home-'))
const scans: number[] = []
for (let i = 0; i < 35; i++) {
  const start = performance.now()
  ProtectedGuard.before(big, home).undoNew(undefined, () => false)
  if (i >= 5) scans.push(performance.now() - start)
}
pass =
  report('protected-entry scans per writable run, 2,000 folders', median(scans.sort((a, b) => a - b)), 'ms', {
    max: GOAL_SCAN_MS
  }) && pass
rmSync(home, { recursive: true, force: true })

await manager.killAll()
rmSync(root, { recursive: true, force: true })
console.log(pass ? 'PASS' : 'FAIL')
process.exit(pass ? 0 : 1)
