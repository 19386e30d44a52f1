import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RouteDef } from '@shared/contracts/define'
import type { RouteResult } from '@shared/contracts/envelope'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createRouter } from '../../../src/main/routes'
import type { Router } from '../../../src/main/bridge/router'
import { startFakeLlm, type FakeLlm } from '../../fixtures/llm/fakeLlm'
import { textReply } from '../loop/helpers'
import { fuzzInputs } from './fuzzInputs'

const CTX = { transport: 'test' as const, clientId: 'fuzz' }
/** Our codes: snake_case words. `SQLITE_ERROR`, `ENOENT` or `ERR_INVALID_ARG_VALUE` are not. */
const OUR_CODE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/

const contracts = import.meta.glob<Record<string, unknown>>(
  '../../../src/shared/contracts/routes/*.routes.ts',
  {
    eager: true
  }
)
const routes: RouteDef[] = Object.values(contracts)
  .flatMap((module) => Object.values(module))
  .filter(
    (v): v is RouteDef => typeof v === 'object' && v !== null && 'name' in v && 'input' in v && 'output' in v
  )
  .sort((a, b) => a.name.localeCompare(b.name))

interface World {
  presenters: Presenters
  router: Router
  llm: FakeLlm
  logged: string[]
  opened: string[]
  ids: Record<string, string>
  workspace: string
}

let world: World
// One world for the whole file (the fuzz loop is long), so temp folders live until afterAll.
const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'deepchat-fuzz-'))
  dirs.push(dir)
  return dir
}

beforeAll(async () => {
  const llm = await startFakeLlm({ kind: 'openai', script: () => textReply('An answer about tokens.') })
  const platform = createNodePlatform({ dataDir: tempDir(), log: () => {} })
  const opened: string[] = []
  platform.openExternal = async (url) => void opened.push(url)
  const presenters = createPresenters(platform, { log: () => {} })
  const logged: string[] = []
  const router = createRouter(presenters, (message, error) => logged.push(`${message}: ${String(error)}`))
  await presenters.llmProviders.addProvider({
    id: 'fake-openai',
    kind: 'openai',
    name: 'Fake',
    baseUrl: llm.baseUrl,
    apiKey: 'sk-test-0123456789abcd',
    models: [{ id: 'fake-model', name: 'Fake model' }],
    maxRetries: 0
  })
  presenters.llmProviders.setDefaultModel({ providerId: 'fake-openai', modelId: 'fake-model' })
  // Routes that change or remove a provider or server get these, so the ones above stay usable.
  await presenters.llmProviders.addProvider({
    id: 'spare',
    kind: 'openai',
    name: 'Spare',
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKey: 'sk-test-0123456789abcd',
    models: [{ id: 'spare-model', name: 'Spare model' }],
    maxRetries: 0
  })
  const spareServer = await presenters.mcp.addServer({
    name: 'Time',
    type: 'inmemory',
    command: 'deepchat-time'
  })
  const workspace = tempDir()
  const accepted = await presenters.agentRuntime.sendMessage({
    text: 'where is the tokenizer?',
    newSession: { providerId: 'fake-openai', modelId: 'fake-model', workspaceDir: workspace }
  })
  await presenters.agentRuntime.idle(accepted.sessionId)
  const server = await presenters.mcp.addServer({
    name: 'History',
    type: 'inmemory',
    command: 'deepchat-history'
  })
  world = {
    presenters,
    router,
    llm,
    logged,
    opened,
    workspace,
    ids: {
      sessionId: accepted.sessionId,
      messageId: accepted.assistantMessageId!,
      tapeId: presenters.sessions.require(accepted.sessionId).tapeId,
      serverId: server.id,
      spareServerId: spareServer.id
    }
  }
})

afterAll(async () => {
  await world?.presenters.dispose()
  await world?.llm.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** Real ids and well-formed values for every field but the fuzzed one, so the fuzz gets deep. */
function plausible(route: string, key: string, schema: Record<string, unknown>): unknown {
  const { ids } = world
  const changes = /\.(update|remove|setEnabled|stop|restart)$/.test(route)
  if (route.startsWith('providers.') && changes && key === 'id') return 'spare'
  if (route.startsWith('mcp.') && changes && key === 'serverId') return ids.spareServerId
  if (key === 'sessionId' || key === 'parentSessionId' || key === 'childSessionId') return ids.sessionId
  if (key in ids) return ids[key]
  if (schema.format === 'uri') return 'http://127.0.0.1:9/'
  const byKey: Record<string, unknown> = {
    id: 'fake-openai',
    providerId: 'fake-openai',
    modelId: 'fake-model',
    workspaceDir: world.workspace,
    cwd: world.workspace,
    defaultPath: world.workspace,
    type: 'inmemory',
    command: 'deepchat-time',
    mimeType: 'image/png',
    json: '{"mcpServers":{}}',
    query: 'tokenizer',
    text: 'hello'
  }
  return byKey[key]
}

describe('every route with odd strings', () => {
  it('covers every registered route', () => {
    expect(routes.map((r) => r.name).sort()).toEqual(world.router.names())
  })

  it('answers NUL, lone surrogates, 1 MB strings, regex and FTS syntax with our own error codes', async () => {
    const leaks: string[] = []
    let calls = 0
    for (const def of routes) {
      for (const { leaf, fuzz, input } of fuzzInputs(def, (key, schema) =>
        plausible(def.name, key, schema)
      )) {
        const result: RouteResult = await world.router.invoke(def.name, input, CTX)
        calls++
        await world.presenters.agentRuntime.idle(world.ids.sessionId)
        if (result.ok) continue
        const { code, message } = result.error
        if (code === 'internal' || !OUR_CODE.test(code))
          leaks.push(`${def.name} ${leaf} (${fuzz}): ${code} ${message.slice(0, 160)}`)
      }
    }
    expect(calls).toBeGreaterThan(500)
    expect(leaks).toEqual([])
    expect(world.logged).toEqual([])
    expect(world.presenters.llmProviders.getDefaultModel()).toEqual({
      providerId: 'fake-openai',
      modelId: 'fake-model'
    })
    expect(world.opened.every((url) => url.startsWith('http'))).toBe(true)
  }, 240_000)
})
