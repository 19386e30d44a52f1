import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { reapOrphanedGroups } from '../../../src/main/presenter/hygiene/processGroups'
import { processStartTime } from '../../../src/main/presenter/hygiene/startTime'
import { createWorld, type AcpWorld } from './harness'
import { until } from '../../helpers/until'

const repoRoot = resolve(import.meta.dirname, '../../..')
let world: AcpWorld | undefined

afterEach(() => world?.close())

const alive = async (pid: number) => (await processStartTime(pid)) !== null

/** A killed process may take a moment to be reaped by its new parent. */
const untilGone = (pid: number) =>
  until(async () => !(await alive(pid)), { what: `process ${pid} is gone`, timeoutMs: 5_000 })

it('leaves nothing running after the host is killed: the next start reaps the agent and its children', async () => {
  world = createWorld()
  const host = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'host.ts'), JSON.stringify(world)],
    {
      cwd: repoRoot,
      env: { ...process.env, TSX_TSCONFIG_PATH: join(repoRoot, 'tsconfig.node.json') },
      stdio: ['ignore', 'pipe', 'pipe']
    }
  )
  let stderr = ''
  host.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const line = await new Promise<string>((resolveLine, reject) => {
    let out = ''
    host.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('\n')) resolveLine(out.split('\n')[0])
    })
    host.on('exit', (code) => reject(new Error(`host exited with ${code}: ${stderr}`)))
  })
  const { agentPid, childPid } = JSON.parse(line) as { agentPid: number; childPid: number }
  expect(await alive(agentPid)).toBe(true)
  expect(await alive(childPid)).toBe(true)

  host.kill('SIGKILL')
  await new Promise((done) => host.once('exit', done))
  // The next host start reaps what this one recorded.
  const reaped = await reapOrphanedGroups(join(world.dataDir, 'process-groups'))
  expect(reaped.killed).toContain(agentPid)
  for (const pid of [agentPid, childPid]) await untilGone(pid)
})
