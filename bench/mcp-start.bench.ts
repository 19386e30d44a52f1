// Wall time to start 10 stdio MCP servers in parallel through McpPresenter, against the slowest
// single start measured in the same run (goal: parallel <= 1.5x slowest single).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createNodePlatform } from '../src/main/platform/nodePlatform'
import { SqlitePresenter } from '../src/main/presenter/sqlitePresenter'
import { ConfigPresenter } from '../src/main/presenter/configPresenter'
import { EventHub } from '../src/main/bridge/events'
import { McpPresenter } from '../src/main/presenter/mcpPresenter'
import { createShellEnvResolver } from '../src/main/presenter/mcpPresenter/shellEnv'
import { report } from './lib'

const COUNT = 10
const fixtures = resolve(import.meta.dirname, '../test/fixtures/mcp')

async function run(label: string, script: string, env: Record<string, string>): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-bench-'))
  const platform = createNodePlatform({ dataDir: dir, log: () => {} })
  const events = new EventHub()
  const sqlite = new SqlitePresenter({ file: join(dir, 'bench.db') })
  const config = new ConfigPresenter({ sqlite, secrets: platform.secrets, events })
  const shellEnv = createShellEnvResolver()
  await shellEnv() // resolved once at launch in the app too; not part of a server's start
  const mcp = new McpPresenter({ config, events, shellEnv })
  const ids = Array.from({ length: COUNT }, (_, i) => `s${i}`)
  for (const id of ids) await mcp.addServer({ id, name: id, type: 'stdio', command: process.execPath, args: [script], env, enabled: false })

  // Baseline: each server alone, one after another.
  let slowestSingle = 0
  for (const id of ids) {
    const start = performance.now()
    const view = await mcp.startServer(id)
    slowestSingle = Math.max(slowestSingle, performance.now() - start)
    if (view.status.state !== 'running') throw new Error(`${id} did not start: ${view.status.lastError}`)
    await mcp.stopServer(id)
  }

  const start = performance.now()
  const views = await Promise.all(ids.map((id) => mcp.startServer(id)))
  const parallel = performance.now() - start
  if (views.some((v) => v.status.state !== 'running')) throw new Error('a server failed to start in parallel')

  await mcp.dispose()
  sqlite.close()
  rmSync(dir, { recursive: true, force: true })

  console.log(`${label}: slowest single start ${slowestSingle.toFixed(0)} ms, ${COUNT} in parallel ${parallel.toFixed(0)} ms`)
  return report(`${label}: ${COUNT} parallel / slowest single`, parallel / slowestSingle, 'x', { max: 1.5 })
}

// The minimal server isolates our part (spawn, handshake, catalog, state); the SDK servers show
// what real Node servers cost on this machine, where ten SDK loads compete for two cores.
const ok = [
  await run('minimal server, 800 ms startup wait', join(fixtures, 'minimalServer.mjs'), { STARTUP_DELAY_MS: '800' }),
  await run('SDK server, 800 ms startup wait', join(fixtures, 'slowStartServer.mjs'), { STARTUP_DELAY_MS: '800' }),
  await run('SDK server, no startup wait (CPU-bound)', join(fixtures, 'testServer.mjs'), {})
]
process.exitCode = ok.every(Boolean) ? 0 : 1
