import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { SqlitePresenter } from '../../../src/main/presenter/sqlitePresenter'
import { ConfigPresenter } from '../../../src/main/presenter/configPresenter'
import { Workspaces } from '../../../src/main/presenter/sessionPresenter/workspaces'
import { EventHub } from '../../../src/main/bridge/events'
import { createShellEnvResolver } from '../../../src/main/presenter/mcpPresenter/shellEnv'
import {
  CommandPermissionService,
  FilePermissionService,
  PermissionPresenter,
  PermissionRuleStore
} from '../../../src/main/presenter/permission'
import { Sandbox } from '../../../src/main/presenter/sandbox'
import { BackgroundProcessManager } from '../../../src/main/presenter/toolPresenter/agentTools/processManager'
import { ProcessGroupRegistry } from '../../../src/main/presenter/hygiene/processGroups'
import {
  AcpPresenter,
  type AcpMcpServerSource,
  type AcpPromptInput
} from '../../../src/main/presenter/acpPresenter'
import type { AcpFileSnapshot } from '../../../src/main/presenter/acpPresenter/turn'
import { fakeAgentProgram } from '../../fixtures/acp/build'
import type { AcpPermissionAnswer, AcpPermissionAsk, AcpRegistry, AcpTurnEvent } from '@shared/types/acp'

/** One login-shell read per test file: presenters come and go, the user's shell does not change. */
const shellEnv = createShellEnvResolver({ timeoutMs: 3_000 })

export interface FakeAgentOptions {
  caps?: Record<string, unknown>
}

/** A data folder (SQLite, secrets) and an agent state folder that outlive one presenter. */
export interface AcpWorld {
  root: string
  dataDir: string
  /** The chat's workspace (a real folder). */
  workspace: string
  /** Where the fake agent appends what it received. */
  recordFile: string
  stateDir: string
  /** A folder outside the workspace. */
  outside: string
  close(): void
}

export function createWorld(): AcpWorld {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-test-')))
  const dirs = {
    dataDir: join(root, 'data'),
    workspace: join(root, 'workspace'),
    stateDir: join(root, 'agent-state'),
    outside: join(root, 'outside')
  }
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true })
  return {
    root,
    ...dirs,
    recordFile: join(root, 'record.jsonl'),
    close: () => rmSync(root, { recursive: true, force: true })
  }
}

export interface AcpHarness {
  acp: AcpPresenter
  platform: ReturnType<typeof createNodePlatform>
  config: ConfigPresenter
  events: { name: string; payload: unknown }[]
  permissions: PermissionPresenter
  processes: BackgroundProcessManager
  sandbox: Sandbox
  /** Adds (and enables) the fake agent as a custom agent. */
  addFakeAgent(id?: string, options?: FakeAgentOptions): Promise<string>
  /** What the fake agent recorded, in order. */
  records(): Record<string, unknown>[]
  close(): Promise<void>
}

export function createHarness(
  world: AcpWorld,
  options: { mcpServers?: AcpMcpServerSource[]; cancelGraceMs?: number; registry?: AcpRegistry } = {}
): AcpHarness {
  const platform = createNodePlatform({ dataDir: world.dataDir, log: () => {} })
  const hub = new EventHub()
  const events: { name: string; payload: unknown }[] = []
  hub.subscribe((name, payload) => events.push({ name, payload }))
  const sqlite = new SqlitePresenter({ file: join(world.dataDir, 'deepchat.db') })
  const config = new ConfigPresenter({
    sqlite,
    secrets: platform.secrets,
    events: hub,
    validateWorkspace: (path) => new Workspaces({ dataDir: world.dataDir }).validate(path)
  })
  const appData = {
    dataDir: world.dataDir,
    secretsFiles: [platform.secretsFile],
    scratchRoot: join(world.dataDir, 'scratch')
  }
  const sandbox = new Sandbox({ appData })
  const groups = new ProcessGroupRegistry(join(world.dataDir, 'process-groups'))
  const processes = new BackgroundProcessManager({ sandbox, groups })
  const permissions = new PermissionPresenter({ rules: new PermissionRuleStore(sqlite) })
  const acp = new AcpPresenter({
    config,
    sqlite,
    events: hub,
    shellEnv,
    clientInfo: { name: 'DeepChat Desk test', version: '0.0.0' },
    files: new FilePermissionService(undefined, { appData }),
    commands: new CommandPermissionService({ appData }),
    processes,
    sandbox,
    sessionDataRoot: join(world.dataDir, 'sessions'),
    gate: permissions,
    groups,
    mcpServersForAgents: async () => options.mcpServers ?? [],
    cancelGraceMs: options.cancelGraceMs,
    registry: options.registry,
    log: () => {}
  })
  return {
    acp,
    platform,
    config,
    events,
    permissions,
    processes,
    sandbox,
    async addFakeAgent(id = 'fake', agentOptions = {}) {
      await acp.addCustomAgent({
        id,
        name: `Fake ${id}`,
        command: process.execPath,
        args: [fakeAgentProgram()],
        env: {
          FAKE_ACP_RECORD: world.recordFile,
          FAKE_ACP_STATE: world.stateDir,
          FAKE_ACP_CAPS: JSON.stringify(agentOptions.caps ?? {})
        }
      })
      return id
    },
    records: () => readRecords(world.recordFile),
    async close() {
      await acp.dispose()
      sqlite.close()
    }
  }
}

export function readRecords(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

/** Permission answers decided by a function, with every ask kept. */
export function answering(
  decide: (ask: AcpPermissionAsk) => AcpPermissionAnswer | Promise<AcpPermissionAnswer>
) {
  const asks: AcpPermissionAsk[] = []
  const snapshots: AcpFileSnapshot[] = []
  return {
    asks,
    snapshots,
    hooks: {
      requestPermission: async (ask: AcpPermissionAsk) => {
        asks.push(ask)
        return decide(ask)
      },
      recordFileSnapshot: async (snapshot: AcpFileSnapshot) => {
        snapshots.push(snapshot)
      }
    }
  }
}

/** Runs a turn to its end and returns every event (throws what the turn throws). */
export async function collect(turn: AsyncIterable<AcpTurnEvent>): Promise<AcpTurnEvent[]> {
  const events: AcpTurnEvent[] = []
  for await (const event of turn) events.push(event)
  return events
}

/** The text the agent said in a turn, joined. */
export function saidText(events: AcpTurnEvent[]): string {
  return events.map((e) => (e.type === 'text' ? e.text : '')).join('')
}

export type PromptBase = Omit<AcpPromptInput, 'content' | 'hooks'>
