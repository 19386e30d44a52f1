import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import type { EventDef } from '@shared/contracts/define'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { SqlitePresenter } from '../../../src/main/presenter/sqlitePresenter'
import { ConfigPresenter } from '../../../src/main/presenter/configPresenter'
import { Workspaces } from '../../../src/main/presenter/sessionPresenter/workspaces'
import { EventHub } from '../../../src/main/bridge/events'
import { McpPresenter, type McpPresenterDeps } from '../../../src/main/presenter/mcpPresenter'
import { createShellEnvResolver } from '../../../src/main/presenter/mcpPresenter/shellEnv'
import type { McpServerStatus } from '@shared/types/mcp'
import { bundledFixtureServer } from '../../fixtures/mcp/bundled'

const require = createRequire(import.meta.url)
// Bundled once (test/fixtures/mcp/bundled.ts): the MCP tests start it many times over.
export const TEST_SERVER = bundledFixtureServer('testServer.mjs')
export const EVERYTHING_SERVER = require.resolve('@modelcontextprotocol/server-everything/dist/index.js')

export interface Harness {
  dir: string
  mcp: McpPresenter
  config: ConfigPresenter
  events: { name: string; payload: unknown }[]
  eventsNamed<E extends EventDef>(def: E): unknown[]
  waitForStatus(
    serverId: string,
    predicate: (s: McpServerStatus) => boolean,
    timeoutMs?: number
  ): Promise<McpServerStatus>
  waitForEvent(name: string, predicate?: (payload: unknown) => boolean, timeoutMs?: number): Promise<unknown>
  close(): Promise<void>
}

/** A McpPresenter on real SQLite and a real secret file in a temp dir. */
export function createHarness(overrides: Partial<McpPresenterDeps> = {}): Harness {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-test-'))
  const platform = createNodePlatform({ dataDir: dir, log: () => {} })
  const hub = new EventHub()
  const events: { name: string; payload: unknown }[] = []
  const waiters = new Set<() => void>()
  hub.subscribe((name, payload) => {
    events.push({ name, payload })
    for (const w of [...waiters]) w()
  })
  const sqlite = new SqlitePresenter({ file: join(dir, 'test.db') })
  const workspaces = new Workspaces({ dataDir: dir })
  const config = new ConfigPresenter({
    sqlite,
    secrets: platform.secrets,
    events: hub,
    validateWorkspace: (path) => workspaces.validate(path)
  })
  const mcp = new McpPresenter({
    config,
    events: hub,
    shellEnv: createShellEnvResolver({ timeoutMs: 3_000 }),
    reconnect: { baseDelayMs: 50, maxDelayMs: 200, maxAttempts: 3, stableMs: 60_000 },
    ...overrides
  })

  function waitFor<T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    return new Promise((resolvePromise, reject) => {
      const attempt = () => {
        const found = check()
        if (found !== undefined) {
          waiters.delete(attempt)
          clearTimeout(timer)
          resolvePromise(found)
        }
      }
      const timer = setTimeout(() => {
        waiters.delete(attempt)
        reject(new Error(`timed out waiting for ${what}`))
      }, timeoutMs)
      waiters.add(attempt)
      attempt()
    })
  }

  return {
    dir,
    mcp,
    config,
    events,
    eventsNamed: (def) => events.filter((e) => e.name === def.name).map((e) => e.payload),
    waitForStatus: (serverId, predicate, timeoutMs = 15_000) =>
      waitFor(
        () => {
          const status = mcp.getServer(serverId).status
          return predicate(status) ? status : undefined
        },
        timeoutMs,
        `status of ${serverId}`
      ),
    waitForEvent: (name, predicate = () => true, timeoutMs = 15_000) =>
      waitFor(
        () => events.find((e) => e.name === name && predicate(e.payload))?.payload,
        timeoutMs,
        `event ${name}`
      ),
    async close() {
      await mcp.dispose()
      sqlite.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

export function testServerInput(id: string, env: Record<string, string> = {}) {
  return { id, name: id, type: 'stdio' as const, command: process.execPath, args: [TEST_SERVER], env }
}
