import { afterEach, describe, expect, it } from 'vitest'
import { agentToolsList, agentToolsSetEnabled } from '@shared/contracts/routes/agentTools.routes'
import { configGetSettings, configUpdateSettings } from '@shared/contracts/routes/config.routes'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createRouter } from '../../../src/main/routes'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()
const open: Presenters[] = []
afterEach(async () => {
  for (const p of open.splice(0)) await p.dispose()
})

function start(dataDir = tempDir()) {
  const presenters = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
  open.push(presenters)
  return { presenters, router: createRouter(presenters), dataDir }
}

describe('agent tool settings routes', () => {
  it('lists every built-in tool, switched on by default', async () => {
    const { router } = start()
    const { tools } = await router.call(agentToolsList, {})
    const names = tools.map((t) => t.name)
    expect(names.slice(0, 9)).toEqual([
      'read',
      'write',
      'edit',
      'glob',
      'grep',
      'exec',
      'process',
      'deepchat_question',
      'update_plan'
    ])
    // Tape, memory, skill, chat-settings and image tools follow; runtime-only tape_handoff never shows.
    expect(names).toEqual(
      expect.arrayContaining([
        'tape_search',
        'tape_context',
        'tape_info',
        'memory_remember',
        'skill_view',
        'deepchat_settings_read',
        'image_generate'
      ])
    )
    expect(names).not.toContain('tape_handoff')
    expect(tools.every((t) => t.enabled)).toBe(true)
    expect(tools.find((t) => t.name === 'read')).toMatchObject({ group: 'agent-filesystem', readOnly: true })
    expect(tools.find((t) => t.name === 'write')?.readOnly).toBe(false)
  })

  it('switches a tool off and on, stores it in settings and keeps it across a restart', async () => {
    const first = start()
    const off = await first.router.call(agentToolsSetEnabled, { name: 'exec', enabled: false })
    expect(off.tools.find((t) => t.name === 'exec')?.enabled).toBe(false)
    expect(first.presenters.config.getSettings().disabledAgentTools).toEqual(['exec'])
    // The session's tool list follows the setting when the loop passes it on.
    const definitions = await first.presenters.tools.getAllToolDefinitions({
      sessionId: 's1',
      workspaceDir: first.dataDir,
      disabledAgentTools: first.presenters.config.getSettings().disabledAgentTools
    })
    expect(definitions.map((d) => d.function.name)).not.toContain('exec')
    await first.presenters.dispose()
    open.splice(open.indexOf(first.presenters), 1)

    const second = start(first.dataDir)
    expect((await second.router.call(agentToolsList, {})).tools.find((t) => t.name === 'exec')?.enabled).toBe(
      false
    )
    const on = await second.router.call(agentToolsSetEnabled, { name: 'exec', enabled: true })
    expect(on.tools.every((t) => t.enabled)).toBe(true)
    expect(second.presenters.config.getSettings().disabledAgentTools).toEqual([])
  })

  it('a session that never changed its own tools gets the tools switched off in settings', async () => {
    const { router, presenters, dataDir } = start()
    const names = async (sessionId: string) =>
      (await presenters.tools.getAllToolDefinitions({ sessionId, workspaceDir: dataDir })).map(
        (d) => d.function.name
      )
    expect(await names('fresh')).toContain('exec')
    await router.call(agentToolsSetEnabled, { name: 'exec', enabled: false })
    expect(await names('fresh')).not.toContain('exec')
    expect(await names('fresh')).toContain('read')
  })

  it('refuses unknown tool names', async () => {
    const { router } = start()
    await expect(router.call(agentToolsSetEnabled, { name: 'rm_rf', enabled: false })).rejects.toMatchObject({
      code: 'not_found'
    })
  })

  it('stores the default permission mode for new sessions and never accepts an unknown one', async () => {
    const { router } = start()
    expect((await router.call(configGetSettings, {})).settings.defaultPermissionMode).toBe('default')
    const { settings } = await router.call(configUpdateSettings, {
      patch: { defaultPermissionMode: 'accept_edits' }
    })
    expect(settings.defaultPermissionMode).toBe('accept_edits')
    await expect(
      router.call(configUpdateSettings, { patch: { defaultPermissionMode: 'yolo' } as never })
    ).rejects.toMatchObject({ code: expect.any(String) })
    expect((await router.call(configGetSettings, {})).settings.defaultPermissionMode).toBe('accept_edits')
  })
})
