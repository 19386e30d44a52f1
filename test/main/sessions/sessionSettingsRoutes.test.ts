import { describe, expect, it } from 'vitest'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { appPickFolder } from '@shared/contracts/routes/app.routes'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters } from '../../../src/main/presenter'
import { createRouter } from '../../../src/main/routes'
import {
  callsReply,
  eventsOf,
  picked,
  call,
  callUnchecked,
  textReply,
  toolCall,
  toolResults,
  useLoopHarness,
  tempDir,
  type LoopHarness
} from '../loop/helpers'
import { until } from '../../helpers/until'
import { sessionsUpdated } from '@shared/contracts/events/sessions.events'
import { agentToolsSetEnabled } from '@shared/contracts/routes/agentTools.routes'
import { sessionsGetSettings, sessionsUpdateSettings } from '@shared/contracts/routes/sessions.routes'
import { type OpenAiRequest } from '../../fixtures/llm/openAiRequest'

const harness = useLoopHarness()
const TEST_SERVER = join(import.meta.dirname, '../../fixtures/mcp/testServer.mjs')

function toolNames(body: OpenAiRequest): string[] {
  return (body.tools ?? []).map((t) => t.function.name)
}

async function startTestServer(h: LoopHarness): Promise<void> {
  await h.presenters.mcp.addServer({
    id: 't',
    name: 'test server',
    type: 'stdio',
    command: process.execPath,
    args: [TEST_SERVER],
    enabled: false
  })
  await h.presenters.mcp.startServer('t')
}

async function expectRefused(h: LoopHarness, input: unknown, code: string): Promise<void> {
  await expect(callUnchecked(h, sessionsUpdateSettings, input)).rejects.toMatchObject({ code })
}

describe('sessions.getSettings / sessions.updateSettings', () => {
  it("switches an existing chat's model: the next request goes to the new model; a disabled model is refused", async () => {
    const h = await harness([textReply('First.'), textReply('Second.')])
    await h.presenters.llmProviders.addProvider({
      id: 'other',
      kind: 'openai',
      name: 'Other',
      baseUrl: h.llm.baseUrl,
      apiKey: 'sk-test-0123456789abcd',
      models: [
        { id: 'second-model', name: 'Second model' },
        { id: 'switched-off', name: 'Off', enabled: false }
      ],
      maxRetries: 0
    })
    const { sessionId } = await h.send('hello')
    await h.idle(sessionId)

    await expectRefused(
      h,
      { sessionId, patch: { model: { providerId: 'other', modelId: 'switched-off' } } },
      'invalid_model'
    )
    await expectRefused(
      h,
      { sessionId, patch: { model: { providerId: 'nope', modelId: 'second-model' } } },
      'invalid_model'
    )
    const { settings } = await call(h, sessionsUpdateSettings, {
      sessionId,
      patch: { model: { providerId: 'other', modelId: 'second-model' } }
    })
    expect(settings).toMatchObject({ providerId: 'other', modelId: 'second-model' })
    expect(eventsOf(h, sessionsUpdated)).toContainEqual({
      sessionIds: [sessionId],
      reason: 'updated'
    })

    await h.send('again', { sessionId })
    await h.idle(sessionId)
    expect(h.bodies().map((b) => b.model)).toEqual(['fake-model', 'second-model'])
    expect((await call(h, sessionsGetSettings, { sessionId })).settings.modelId).toBe('second-model')
  }, 30_000)

  it('lets the user widen the permission mode: a write outside the workspace then runs without asking', async () => {
    const outside = tempDir()
    const target = join(outside, 'widened.txt')
    const h = await harness([
      textReply('Hi.'),
      callsReply(toolCall('w1', 'write', { path: target, content: 'yes' })),
      textReply('Written.')
    ])
    const { sessionId } = await h.send('hello')
    await h.idle(sessionId)
    await expectRefused(h, { sessionId, patch: { permissionMode: 'everything' } }, 'invalid_input')

    const { settings } = await call(h, sessionsUpdateSettings, {
      sessionId,
      patch: { permissionMode: 'full_access' }
    })
    expect(settings.permissionMode).toBe('full_access')
    await h.send('write it', { sessionId })
    await h.idle(sessionId)
    expect(h.presenters.sessions.interactions.list({ sessionId, status: 'pending' })).toEqual([])
    expect(existsSync(target)).toBe(true)

    // And back: narrowing is a user choice too.
    expect(
      (await call(h, sessionsUpdateSettings, { sessionId, patch: { permissionMode: 'default' } })).settings
        .permissionMode
    ).toBe('default')
  }, 30_000)

  it('refuses a workspace that is relative, missing or a file, and keeps the old one; a real folder is used from the next turn', async () => {
    const h = await harness([
      textReply('Hi.'),
      callsReply(toolCall('w1', 'write', { path: 'moved.txt', content: 'here' })),
      textReply('Done.')
    ])
    const { sessionId } = await h.send('hello', { permissionMode: 'accept_edits' })
    await h.idle(sessionId)
    const file = join(h.workspace, 'plain.txt')
    writeFileSync(file, 'x')
    // Typed, none of them is a pick; through the picker, none of them is a folder.
    for (const workspaceDir of ['relative/dir', join(h.workspace, 'missing'), file]) {
      await expectRefused(h, { sessionId, patch: { workspaceDir } }, 'path_not_picked')
      await expect(picked(h, workspaceDir)).rejects.toThrow(/invalid_folder/)
    }
    // A bad value in the same patch loses nothing: the valid parts are not applied either.
    await expectRefused(
      h,
      { sessionId, patch: { permissionMode: 'full_access', workspaceDir: 'nope' } },
      'path_not_picked'
    )
    expect((await call(h, sessionsGetSettings, { sessionId })).settings).toMatchObject({
      workspaceDir: h.workspace,
      permissionMode: 'accept_edits'
    })

    const next = tempDir()
    const { settings } = await call(h, sessionsUpdateSettings, {
      sessionId,
      patch: { workspaceDir: await picked(h, `${next}/`) }
    })
    expect(settings.workspaceDir).toBe(next)
    await h.send('write', { sessionId })
    await h.idle(sessionId)
    expect(existsSync(join(next, 'moved.txt'))).toBe(true)
    expect(existsSync(join(h.workspace, 'moved.txt'))).toBe(false)
  }, 30_000)

  it("switching an MCP server off for chat A hides its tools from A's next request but not from B's, and refuses a call", async () => {
    const h = await harness([
      textReply('A1.'),
      textReply('B1.'),
      callsReply(toolCall('e1', 't__echo', { message: 'hi' })),
      textReply('A refused.'),
      textReply('B2.')
    ])
    await startTestServer(h)
    const a = (await h.send('a', { permissionMode: 'full_access' })).sessionId
    await h.idle(a)
    const b = (await h.send('b', { permissionMode: 'full_access' })).sessionId
    await h.idle(b)
    expect(toolNames(h.bodies()[0])).toContain('t__echo')

    await expectRefused(h, { sessionId: a, patch: { mcpServers: { ghost: false } } }, 'unknown_mcp_server')
    const { settings } = await call(h, sessionsUpdateSettings, {
      sessionId: a,
      patch: { mcpServers: { t: false } }
    })
    const serverT = <S extends { id: string }>(list: S[]) => list.find((s) => s.id === 't')
    expect(serverT(settings.mcpServers)).toEqual({
      id: 't',
      name: 'test server',
      state: 'running',
      serverEnabled: false,
      enabled: false
    })
    expect(serverT((await call(h, sessionsGetSettings, { sessionId: b })).settings.mcpServers)?.enabled).toBe(
      true
    )

    await h.send('call echo', { sessionId: a })
    await h.idle(a)
    const [, , aRequest, aAfterCall] = h.bodies()
    expect(toolNames(aRequest)).not.toContain('t__echo')
    expect(toolNames(aRequest)).toContain('read')
    expect(toolResults(aAfterCall)[0].content).toMatch(
      /MCP server test server, which the user switched off for this chat/
    )

    await h.send('b again', { sessionId: b })
    await h.idle(b)
    expect(toolNames(h.bodies()[4])).toContain('t__echo')
  }, 30_000)

  it('switches a built-in tool off (and a diagnostic one on) for one chat only', async () => {
    const h = await harness([textReply('A1.'), textReply('B1.'), textReply('A2.'), textReply('B2.')])
    const a = (await h.send('a')).sessionId
    await h.idle(a)
    const b = (await h.send('b')).sessionId
    await h.idle(b)
    expect(toolNames(h.bodies()[0])).toContain('write')

    await expectRefused(h, { sessionId: a, patch: { tools: { no_such_tool: false } } }, 'unknown_tool')
    const { settings } = await call(h, sessionsUpdateSettings, {
      sessionId: a,
      patch: { tools: { write: false, tape_info: true } }
    })
    const byName = Object.fromEntries(settings.tools.map((t) => [t.name, t]))
    expect(byName.write).toMatchObject({ enabled: false, group: 'agent-filesystem', readOnly: false })
    expect(byName.tape_info.enabled).toBe(true)
    expect(byName.read.enabled).toBe(true)

    await h.send('a2', { sessionId: a })
    await h.idle(a)
    await h.send('b2', { sessionId: b })
    await h.idle(b)
    const [, , aNext, bNext] = h.bodies()
    expect(toolNames(aNext)).not.toContain('write')
    expect(toolNames(aNext)).toContain('tape_info')
    expect(toolNames(bNext)).toContain('write')
    expect(toolNames(bNext)).not.toContain('tape_info')
  }, 30_000)

  it("says which built-in tools a chat can have: switched on and available is exactly the model's list", async () => {
    const h = await harness([textReply('A1.'), textReply('A2.')])
    // Off app-wide before the chat exists, then switched on in the chat: the chat's switch wins.
    await call(h, agentToolsSetEnabled, { name: 'tape_info', enabled: false })
    const { sessionId } = await h.send('a')
    await h.idle(sessionId)
    await call(h, sessionsUpdateSettings, { sessionId, patch: { tools: { tape_info: true } } })
    const { settings } = await call(h, sessionsGetSettings, { sessionId })
    const byName = Object.fromEntries(settings.tools.map((t) => [t.name, t]))
    // The chat-settings tools wait for their skill; image_generate for an image model.
    expect(byName.deepchat_settings_set_model).toMatchObject({ enabled: true, available: false })
    expect(byName.image_generate).toMatchObject({ enabled: true, available: false })
    expect(byName.tape_info).toMatchObject({ enabled: true, available: true })

    await h.send('a2', { sessionId })
    await h.idle(sessionId)
    const offered = settings.tools.filter((t) => t.enabled && t.available).map((t) => t.name)
    const builtIn = toolNames(h.bodies()[1]).filter((name) => name in byName)
    expect(builtIn.sort()).toEqual(offered.sort())
  }, 30_000)

  it('a switch made while a turn runs applies from its next provider request; the turn keeps going', async () => {
    const h = await harness([
      callsReply(toolCall('s1', 't__slow', { ms: 800 }), toolCall('s2', 't__slow', { ms: 10 })),
      textReply('Slept.')
    ])
    await startTestServer(h)
    const { sessionId, assistantMessageId } = await h.send('sleep', { permissionMode: 'full_access' })
    await until(() =>
      h.presenters.agentRuntime
        .getMessage(assistantMessageId)
        .blocks.some((block) => block.kind === 'tool_call' && block.status === 'loading')
    )
    await call(h, sessionsUpdateSettings, {
      sessionId,
      patch: { mcpServers: { t: false }, tools: { exec: false } }
    })
    await h.idle(sessionId)
    expect(h.presenters.sessions.messages.require(assistantMessageId).status).toBe('sent')
    const [first, second] = toolResults(h.bodies()[1])
    expect(first).toEqual({ tool_call_id: 's1', content: 'slept 800' })
    // The round's next call to that server is refused: it was switched off meanwhile.
    expect(second.tool_call_id).toBe('s2')
    expect(second.content).toMatch(/belongs to the MCP server t, which the user switched off for this chat/)
    expect(toolNames(h.bodies()[0])).toEqual(expect.arrayContaining(['t__slow', 'exec']))
    expect(toolNames(h.bodies()[1])).not.toContain('t__slow')
    expect(toolNames(h.bodies()[1])).not.toContain('exec')
  }, 30_000)

  it('keeps both of two changes sent at once (a model check in flight does not overwrite the mode)', async () => {
    const h = await harness([textReply('Hi.')])
    await h.presenters.llmProviders.addProvider({
      id: 'other',
      kind: 'openai',
      name: 'Other',
      baseUrl: h.llm.baseUrl,
      apiKey: 'sk-test-0123456789abcd',
      models: [{ id: 'second-model', name: 'Second' }],
      maxRetries: 0
    })
    const { sessionId } = await h.send('hello')
    await h.idle(sessionId)
    await Promise.all([
      call(h, sessionsUpdateSettings, {
        sessionId,
        patch: { model: { providerId: 'other', modelId: 'second-model' } }
      }),
      call(h, sessionsUpdateSettings, { sessionId, patch: { permissionMode: 'accept_edits' } })
    ])
    expect((await call(h, sessionsGetSettings, { sessionId })).settings).toMatchObject({
      modelId: 'second-model',
      permissionMode: 'accept_edits'
    })
  }, 30_000)

  it('does not let a subagent chat get more access than its parent', async () => {
    const h = await harness([textReply('Hi.')])
    const { sessionId } = await h.send('hello')
    await h.idle(sessionId)
    const child = h.presenters.sessions.createSubagent(sessionId, {
      title: 'child',
      meta: { slotId: 'helper', displayName: 'Helper' }
    })
    await expectRefused(
      h,
      { sessionId: child.id, patch: { permissionMode: 'full_access' } },
      'invalid_permission_mode'
    )
    await call(h, sessionsUpdateSettings, { sessionId, patch: { permissionMode: 'full_access' } })
    expect(
      (
        await call(h, sessionsUpdateSettings, {
          sessionId: child.id,
          patch: { permissionMode: 'full_access' }
        })
      ).settings.permissionMode
    ).toBe('full_access')
  }, 30_000)

  it('answers session_not_found for an unknown session', async () => {
    const h = await harness([])
    await expect(call(h, sessionsGetSettings, { sessionId: 'missing' })).rejects.toMatchObject({
      code: 'session_not_found'
    })
  })
})

describe('app.pickFolder', () => {
  it('says the headless host has no native folder dialog', async () => {
    const h = await harness([])
    expect(await call(h, appPickFolder, {})).toEqual({ supported: false })
  })

  it("returns the platform dialog's choice (null when cancelled) with a pick token where there is one", async () => {
    const dataDir = tempDir()
    const project = tempDir()
    const asked: unknown[] = []
    const answers = [project, null]
    // Electron's dialog needs a display; the route only depends on the Platform method.
    const pickFolder = async (options: unknown) => {
      asked.push(options)
      return answers.shift() ?? null
    }
    const platform = { ...createNodePlatform({ dataDir, log: () => {} }), pickFolder }
    const presenters = createPresenters(platform, { log: () => {} })
    try {
      const router = createRouter(presenters)
      expect(await router.call(appPickFolder, { title: 'Workspace', defaultPath: '/home/me' })).toEqual({
        supported: true,
        path: project,
        token: expect.stringMatching(/^picked:/)
      })
      expect(await router.call(appPickFolder, {})).toEqual({ supported: true, path: null, token: null })
      expect(asked).toEqual([{ title: 'Workspace', defaultPath: '/home/me' }, {}])
    } finally {
      await presenters.dispose()
    }
  })
})
