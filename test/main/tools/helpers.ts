import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { PlanSnapshot } from '@shared/contracts/events/tools.events'
import type { MCPToolCall, ToolContentItem } from '@shared/types/tools'
import { SqlitePresenter } from '../../../src/main/presenter/sqlitePresenter'
import { PermissionPresenter, PermissionRuleStore } from '../../../src/main/presenter/permission'
import { FilePermissionService } from '../../../src/main/presenter/permission/filePermissionService'
import type { AppDataBoundary } from '../../../src/main/presenter/permission/boundary'
import { CommandPermissionService } from '../../../src/main/presenter/permission/commandPermissionService'
import { ToolPresenter, type ToolSessionContext } from '../../../src/main/presenter/toolPresenter'
import type { McpServerTool, McpToolSource } from '../../../src/main/presenter/toolPresenter/mcpToolSource'
import { exposeToolNames } from '../../../src/main/presenter/mcpPresenter/toolNames'
import type {
  AgentToolRuntimePort,
  FileSnapshot
} from '../../../src/main/presenter/toolPresenter/runtimePorts'
import {
  AgentToolManager,
  type AgentToolManagerOptions
} from '../../../src/main/presenter/toolPresenter/agentTools/agentToolManager'
import { BackgroundProcessManager } from '../../../src/main/presenter/toolPresenter/agentTools/processManager'
import { Sandbox } from '../../../src/main/presenter/sandbox'

/** The runtime port as a test sees it: it just remembers what tools told it. */
export class RecordingRuntime implements AgentToolRuntimePort {
  snapshots: FileSnapshot[] = []
  plans: PlanSnapshot[] = []
  processEvents: { processId: string; status: string }[] = []
  recordFileSnapshot(snapshot: FileSnapshot): void {
    this.snapshots.push(snapshot)
  }
  publishPlan(snapshot: PlanSnapshot): void {
    this.plans.push(snapshot)
  }
  notifyProcessChanged(event: { processId: string; status: string }): void {
    this.processEvents.push({ processId: event.processId, status: event.status })
  }
}

export const emptyMcp: McpToolSource = {
  listTools: async () => [],
  callTool: async () => {
    throw new Error('no MCP servers')
  }
}

/** A real MCP client connected in memory to `server`, exposed through the McpToolSource port. */
export async function connectMcp(
  servers: { id: string; name: string; server: McpServer }[]
): Promise<McpToolSource & { close(): Promise<void> }> {
  const clients = new Map<string, Client>()
  for (const { id, server } of servers) {
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
    await server.connect(serverTransport)
    const client = new Client({ name: 'test', version: '1.0.0' })
    await client.connect(clientTransport)
    clients.set(id, client)
  }
  return {
    async listTools(): Promise<McpServerTool[]> {
      const all: McpServerTool[] = []
      for (const { id, name } of servers) {
        const { tools } = await clients.get(id)!.listTools()
        const exposed = exposeToolNames(
          id,
          tools.map((t) => t.name)
        )
        for (const tool of tools) {
          all.push({
            serverId: id,
            serverName: name,
            name: tool.name,
            exposedName: exposed.get(tool.name)!.name,
            description: tool.description ?? '',
            inputSchema: tool.inputSchema as McpServerTool['inputSchema'],
            annotations: tool.annotations
          })
        }
      }
      return all
    },
    async callTool(serverId, toolName, args, options) {
      const result = await clients
        .get(serverId)!
        .callTool({ name: toolName, arguments: args }, undefined, { signal: options?.signal })
      return {
        content: result.content as ToolContentItem[],
        structuredContent: result.structuredContent,
        isError: result.isError === true
      }
    },
    async close() {
      for (const client of clients.values()) await client.close()
    }
  }
}

/** The provider key the harness's secrets file holds: no tool output may ever contain it. */
export const TEST_SECRET = 'sk-test-9f8e7d6c5b4a-DO-NOT-LEAK'

export interface Harness {
  root: string
  workspace: string
  home: string
  dataRoot: string
  /** The app's data folder (the database lives here); with `appData`, under home like a macOS install. */
  dataDir: string
  /** With `appData`: the boundary the file service was given (secrets file holding TEST_SECRET). */
  appData?: AppDataBoundary
  sqlite: SqlitePresenter
  gate: PermissionPresenter
  runtime: RecordingRuntime
  tools: ToolPresenter
  ctx: ToolSessionContext
  call(
    name: string,
    args: unknown,
    extra?: Partial<ToolSessionContext>
  ): ReturnType<ToolPresenter['callTool']>
  text(result: Awaited<ReturnType<ToolPresenter['callTool']>>): string
  close(): Promise<void>
}

let callCounter = 0

export interface HarnessOptions {
  mcp?: McpToolSource
  agentTools?: AgentToolManagerOptions
  mcpAutoApprove?: (serverId: string, tool: string) => boolean
  /**
   * Put the app's data folder under home (`~/Library/Application Support/DeepChat`, with a secrets file and a scratch
   * root) and give the file service its boundary, as createPresenters does.
   */
  appData?: boolean
  /** Run unasked commands in the real OS sandbox, with home hidden and the data folder masked. */
  sandbox?: boolean
}

export function createHarness(options: HarnessOptions = {}): Harness {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tools-')))
  const workspace = join(root, 'ws')
  const home = join(root, 'home')
  // Not a hidden folder (as on macOS), so searches skip it only because the tools make them.
  const dataDir = options.appData
    ? join(home, 'Library', 'Application Support', 'DeepChat')
    : join(root, 'data')
  const dataRoot = join(dataDir, 'sessions')
  mkdirSync(workspace, { recursive: true })
  mkdirSync(home, { recursive: true })
  mkdirSync(dataDir, { recursive: true })
  const appData = options.appData ? createAppData(dataDir) : undefined
  const sqlite = new SqlitePresenter({ file: join(dataDir, 'db.sqlite') })
  const gate = new PermissionPresenter({ rules: new PermissionRuleStore(sqlite), home })
  const runtime = new RecordingRuntime()
  const tools = new ToolPresenter({
    mcp: options.mcp ?? emptyMcp,
    permissions: gate,
    runtime,
    sessionDataRoot: dataRoot,
    files: new FilePermissionService(home, { appData }),
    commands: new CommandPermissionService({ home, appData }),
    ...(options.sandbox ? sandboxed(new Sandbox({ home, appData })) : {}),
    agentTools: new AgentToolManager(options.agentTools),
    mcpAutoApprove: options.mcpAutoApprove
  })
  const ctx: ToolSessionContext = {
    sessionId: 'session-1',
    workspaceDir: workspace,
    permissionMode: 'default'
  }
  return {
    root,
    workspace,
    home,
    dataRoot,
    dataDir,
    appData,
    sqlite,
    gate,
    runtime,
    tools,
    ctx,
    call(name, args, extra = {}) {
      const call: MCPToolCall = {
        id: `call_${++callCounter}`,
        name,
        arguments: typeof args === 'string' ? args : JSON.stringify(args)
      }
      return tools.callTool(call, { ...ctx, ...extra })
    },
    text(result) {
      return result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n')
    },
    async close() {
      await tools.dispose()
      sqlite.close()
      rmSync(root, { recursive: true, force: true })
    }
  }
}

function sandboxed(sandbox: Sandbox) {
  return { sandbox, processes: new BackgroundProcessManager({ sandbox }) }
}

function createAppData(dataDir: string): AppDataBoundary {
  const secretsFile = join(dataDir, 'secrets.json')
  writeFileSync(secretsFile, JSON.stringify({ 'provider.openai.apiKey': TEST_SECRET }), { mode: 0o600 })
  mkdirSync(join(dataDir, 'scratch'), { recursive: true })
  return { dataDir, secretsFiles: [secretsFile], scratchRoot: join(dataDir, 'scratch') }
}
