// What a shell command costs through the exec tool, the path the chat calls (ToolPresenter ->
// exec: permission check, sandbox, shell-change capture for checkpoints, result), against
// `bash -c` of the same command spawned directly, in the same run, alternating so load from
// other processes hits both alike. Workspaces of 50 and 5,000 files. Linux with bwrap only.
//   - a read-only command (`ls`) runs unasked in the read-only sandbox: goal at most +15 ms
//     (median) over `bash -c`; that is the sandbox's own start plus the tool's work;
//   - a writing command (`printf` into a file) on the host (full access), where only the tool
//     and the capture are added: goal at most 1.3x `bash -c` (median) in the 5,000-file workspace;
//   - the same writing command unasked in the writable sandbox (accept edits): goal at most
//     1.3x the same sandboxed command through the process manager without the tool, i.e. the
//     tool and the capture may add 30 % to what the sandbox itself costs.
// Then the scan for protected entries a writable sandboxed run adds, against a plain walk of
// the same 2,000 folders.
import { registerRawImports } from './rawImports'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { median, report } from './lib'

registerRawImports()

const { Sandbox } = await import('../src/main/presenter/sandbox')
const { ProtectedGuard } = await import('../src/main/presenter/sandbox/protectedGuard')
const { BackgroundProcessManager } =
  await import('../src/main/presenter/toolPresenter/agentTools/processManager')
const { ToolPresenter } = await import('../src/main/presenter/toolPresenter/index')
const { PermissionPresenter, PermissionRuleStore } = await import('../src/main/presenter/permission/index')
const { SqlitePresenter } = await import('../src/main/presenter/sqlitePresenter/index')

const RUNS = 40
const GOAL_READ_ONLY_ADDED_MS = 15
const GOAL_WRITE_RATIO = 1.3
const GOAL_SCAN_RATIO = 3

const sandbox = new Sandbox()
const status = await sandbox.status()
if (!status.available) {
  console.log(`no sandbox here (${status.reason}); nothing to measure`)
  process.exit(process.platform === 'linux' ? 1 : 0)
}

const root = mkdtempSync(join(tmpdir(), 'sandbox-bench-'))

function workspaceOf(files: number): string {
  const dir = join(root, `ws${files}`)
  const perDir = 100
  for (let i = 0; i < files; i++) {
    const sub = files > perDir ? join(dir, `d${Math.floor(i / perDir)}`) : dir
    if (i % perDir === 0) mkdirSync(sub, { recursive: true })
    writeFileSync(join(sub, `file${i}.txt`), `line ${i}\n`)
  }
  return dir
}

const sqlite = new SqlitePresenter({ file: join(root, 'bench.db') })
const processes = new BackgroundProcessManager({ sandbox })
const tools = new ToolPresenter({
  mcp: { listTools: async () => [], callTool: async () => ({ content: [], isError: false }) },
  permissions: new PermissionPresenter({ rules: new PermissionRuleStore(sqlite) }),
  runtime: { recordFileSnapshot: () => {}, publishPlan: () => {} },
  sessionDataRoot: join(root, 'sessions'),
  processes,
  sandbox
})

let callId = 0
type Mode = 'default' | 'accept_edits' | 'full_access'

type ExecData = { exitCode?: number; sandboxed?: boolean; changesNotRecorded?: string } | undefined

/** One exec call through the tool; checks it ran where the mode says and succeeded. */
async function execOnce(workspace: string, command: string, mode: Mode): Promise<[number, ExecData]> {
  const start = performance.now()
  const result = await tools.callTool(
    { id: `b${++callId}`, name: 'exec', arguments: JSON.stringify({ command }) },
    { sessionId: 'bench', workspaceDir: workspace, permissionMode: mode }
  )
  const elapsed = performance.now() - start
  const data = result.rawData.toolResult.data as ExecData
  if (result.rawData.isError || data?.exitCode !== 0 || data.sandboxed !== (mode !== 'full_access'))
    throw new Error(`${command} (${mode}) failed: ${JSON.stringify(result.rawData.toolResult)}`)
  return [elapsed, data]
}

/** A timed exec; a writing command must have had its changes recorded (else the capture was skipped). */
async function viaTool(workspace: string, command: string, mode: Mode): Promise<number> {
  const [elapsed, data] = await execOnce(workspace, command, mode)
  if (data?.changesNotRecorded)
    throw new Error(`${command} (${mode}) was not captured: ${data.changesNotRecorded}`)
  return elapsed
}

/**
 * The first snapshot of a workspace hashes every file and may outlast the capture's budget (it
 * then finishes in the background): wait until writing commands are captured, as between
 * commands in a chat, so the timed runs measure the warm capture.
 */
async function warmCapture(workspace: string): Promise<void> {
  const deadline = Date.now() + 120_000
  for (;;) {
    const [, data] = await execOnce(workspace, 'printf x > warm.txt', 'full_access')
    if (!data?.changesNotRecorded) return
    if (Date.now() > deadline) throw new Error(`the workspace was never captured: ${data.changesNotRecorded}`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

/** The same command without the app: `bash -c`, output read, exit awaited. */
function viaBash(workspace: string, command: string): Promise<number> {
  const start = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd: workspace, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.resume()
    child.stderr.resume()
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve(performance.now() - start) : reject(new Error(`bash -c ${command}: ${code}`))
    )
  })
}

/** The same command in the sandbox through the process manager alone: no tool, no capture. */
async function viaManager(workspace: string, command: string): Promise<number> {
  const start = performance.now()
  const info = await processes.start({
    sessionId: 'bench-manager',
    command,
    cwd: workspace,
    logDir: root,
    keepStdin: false,
    sandbox: { workspaceDir: workspace, writableWorkspace: true }
  })
  await processes.waitForExitOrYield('bench-manager', info.processId, 30_000)
  const elapsed = performance.now() - start
  const done = processes.info('bench-manager', info.processId)
  processes.forget('bench-manager', info.processId)
  if (done.exitCode !== 0 || !done.sandboxed) throw new Error(`${command} failed: ${JSON.stringify(done)}`)
  return elapsed
}

/** Alternates baseline and candidate (who goes first alternates too); sorted times of each. */
async function paired(
  baseline: () => Promise<number>,
  candidate: () => Promise<number>
): Promise<[number[], number[]]> {
  for (let i = 0; i < 4; i++) {
    await baseline()
    await candidate()
  }
  const a: number[] = []
  const b: number[] = []
  for (let i = 0; i < RUNS; i++) {
    if (i % 2 === 0) {
      a.push(await baseline())
      b.push(await candidate())
    } else {
      b.push(await candidate())
      a.push(await baseline())
    }
  }
  return [a.sort((x, y) => x - y), b.sort((x, y) => x - y)]
}

const line = (label: string, base: number[], baseName: string, measured: number[]) =>
  console.log(
    `  ${label}: ${baseName} median ${median(base).toFixed(1)} ms, tool median ${median(measured).toFixed(1)} ms, ` +
      `+${(median(measured) - median(base)).toFixed(1)} ms, ${(median(measured) / median(base)).toFixed(2)}x`
  )

let pass = true
for (const files of [50, 5_000]) {
  const workspace = workspaceOf(files)
  console.log(`\n${files} files (${status.kind})`)
  const [bashLs, toolLs] = await paired(
    () => viaBash(workspace, 'ls'),
    () => viaTool(workspace, 'ls', 'default')
  )
  line('`ls`, read-only sandbox', bashLs, 'bash -c', toolLs)
  pass =
    report(
      `  read-only \`ls\` in the sandbox, ${files} files: added`,
      median(toolLs) - median(bashLs),
      'ms',
      {
        max: GOAL_READ_ONLY_ADDED_MS
      }
    ) && pass

  await warmCapture(workspace)
  let n = 0
  const write = () => `printf '%s\\n' ${++n} > out.txt`
  const [bashWrite, hostWrite] = await paired(
    () => viaBash(workspace, write()),
    () => viaTool(workspace, write(), 'full_access')
  )
  line('writing command, host (full access)', bashWrite, 'bash -c', hostWrite)
  const [managerWrite, boxedWrite] = await paired(
    () => viaManager(workspace, write()),
    () => viaTool(workspace, write(), 'accept_edits')
  )
  line('writing command, writable sandbox', managerWrite, 'sandboxed run without the tool', boxedWrite)
  if (files === 5_000) {
    pass =
      report('  writing command on the host / bash -c', median(hostWrite) / median(bashWrite), 'x', {
        max: GOAL_WRITE_RATIO
      }) && pass
    pass =
      report(
        '  writing command in the sandbox / sandboxed run without the tool',
        median(boxedWrite) / median(managerWrite),
        'x',
        { max: GOAL_WRITE_RATIO }
      ) && pass
  }
}

// What the scan for protected entries adds to a writable sandboxed run (before and after it;
// read-only runs scan nothing), in a workspace of 2,000 folders, against a plain walk listing
// the same folders twice (the least a scan of them can do), alternating.
const big = join(root, 'big')
for (let i = 0; i < 40; i++)
  for (let j = 0; j < 50; j++) mkdirSync(join(big, `d${i}`, `e${j}`), { recursive: true })
const home = mkdtempSync(join(tmpdir(), 'sandbox-bench-home-'))
const walk = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce(
    (count, entry) => count + 1 + (entry.isDirectory() ? walk(join(dir, entry.name)) : 0),
    0
  )
const [walks, scans] = await paired(
  async () => {
    const start = performance.now()
    walk(big)
    walk(big)
    return performance.now() - start
  },
  async () => {
    const start = performance.now()
    ProtectedGuard.before(big, home).undoNew(undefined, () => false)
    return performance.now() - start
  }
)
console.log(
  `\nprotected-entry scans, 2,000 folders: plain walk x2 median ${median(walks).toFixed(1)} ms, scans median ${median(scans).toFixed(1)} ms`
)
pass =
  report('protected-entry scans / plain walk x2', median(scans) / median(walks), 'x', {
    max: GOAL_SCAN_RATIO
  }) && pass
rmSync(home, { recursive: true, force: true })

await tools.dispose()
await processes.killAll()
sqlite.close()
rmSync(root, { recursive: true, force: true })
console.log(pass ? 'PASS' : 'FAIL')
process.exit(pass ? 0 : 1)
