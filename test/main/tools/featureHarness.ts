import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { MCPToolCall } from '@shared/types/tools'
import type { CreateSessionInput } from '@shared/types/session'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import type { ToolCallResult, ToolSessionContext } from '../../../src/main/presenter/toolPresenter'

/** Real presenters on a temp data dir with one session, calling tools the way the loop does. */
export interface FeatureHarness {
  presenters: Presenters
  dataDir: string
  workspace: string
  sessionId: string
  ctx(): ToolSessionContext
  call(name: string, args: unknown, sessionId?: string): Promise<ToolCallResult>
  text(result: ToolCallResult): string
  /** The result's text parsed as JSON, read as `T` (the shape the test expects the tool to answer). */
  json<T = unknown>(result: ToolCallResult): T
  toolNames(sessionId?: string): Promise<string[]>
  newSession(input?: CreateSessionInput): string
  close(): Promise<void>
}

let counter = 0

export function createFeatureHarness(options: { session?: CreateSessionInput } = {}): FeatureHarness {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'features-')))
  const dataDir = join(root, 'data')
  const workspace = join(root, 'ws')
  const presenters = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
  const newSession = (input: CreateSessionInput = {}) =>
    presenters.sessions.create({ workspaceDir: workspace, ...options.session, ...input }).id
  const sessionId = newSession()
  const ctxFor = (id: string): ToolSessionContext => {
    const session = presenters.sessions.require(id)
    return {
      sessionId: id,
      workspaceDir: session.workspaceDir ?? workspace,
      permissionMode: session.permissionMode
    }
  }
  const harness: FeatureHarness = {
    presenters,
    dataDir,
    workspace,
    sessionId,
    ctx: () => ctxFor(sessionId),
    async call(name, args, id = sessionId) {
      const call: MCPToolCall = {
        id: `call_${++counter}`,
        name,
        arguments: typeof args === 'string' ? args : JSON.stringify(args)
      }
      // Like the loop: the tool list is fetched for the session before its calls run.
      await presenters.tools.getAllToolDefinitions(ctxFor(id))
      return presenters.tools.callTool(call, ctxFor(id))
    },
    text: (result) => result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n'),
    json: <T>(result: ToolCallResult) => JSON.parse(harness.text(result)) as T,
    async toolNames(id = sessionId) {
      return (await presenters.tools.getAllToolDefinitions(ctxFor(id))).map((d) => d.function.name)
    },
    newSession,
    async close() {
      await presenters.dispose()
      rmSync(root, { recursive: true, force: true })
    }
  }
  return harness
}
