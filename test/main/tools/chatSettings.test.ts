import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  SettingsPermissionRequiredError,
  type PermissionRequiredError
} from '../../../src/main/presenter/permission'
import { createFeatureHarness, type FeatureHarness } from './featureHarness'

let h: FeatureHarness
beforeEach(async () => {
  h = createFeatureHarness({
    session: {
      providerId: 'p1',
      modelId: 'm1',
      permissionMode: 'accept_edits',
      generationSettings: { temperature: 0.7 }
    }
  })
  for (const id of ['p1', 'p2']) {
    await h.presenters.llmProviders.addProvider({
      id,
      kind: 'openai-compatible',
      name: id,
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: 'sk-test-0123456789abcd',
      models: [
        { id: 'm1', name: 'M1' },
        { id: 'm2', name: 'M2' }
      ]
    })
  }
  await h.call('skill_view', { name: 'deepchat-settings' })
})
afterEach(async () => {
  await h.close()
})

/** Calls a tool that needs approval: expects the request, approves it once, calls again. */
async function approved(name: string, args: unknown) {
  const error = (await h.call(name, args).then(
    () => null,
    (e: unknown) => e
  )) as PermissionRequiredError | null
  expect(error).toBeInstanceOf(SettingsPermissionRequiredError)
  expect(error!.request).toMatchObject({
    type: 'settings',
    tool: name,
    server: 'deepchat-settings',
    sessionId: h.sessionId
  })
  h.presenters.permissions.decide(error!.request, 'once')
  return h.call(name, args)
}

describe('chat-settings tools', () => {
  it('are offered only while the deepchat-settings skill is active', async () => {
    const fresh = h.newSession()
    expect((await h.toolNames(fresh)).some((n) => n.startsWith('deepchat_settings_'))).toBe(false)
    const call = await h.call('deepchat_settings_read', {}, fresh)
    expect(call.rawData.toolResult.error?.code).toBe('unknown_tool')
  })

  it('read shows the session settings and the models it may switch to', async () => {
    const view = h.json<{ availableModels: unknown[] }>(await h.call('deepchat_settings_read', {}))
    expect(view).toMatchObject({
      providerId: 'p1',
      modelId: 'm1',
      temperature: 0.7,
      systemPrompt: '',
      permissionMode: 'accept_edits'
    })
    expect(view.availableModels).toContainEqual({ providerId: 'p2', modelId: 'm2' })
  })

  it('changes model, temperature and system prompt only after the user approves', async () => {
    const model = await approved('deepchat_settings_set_model', { providerId: 'p2', modelId: 'm2' })
    expect(h.json(model)).toMatchObject({ ok: true, value: 'm2', previousValue: 'm1' })
    const temp = await approved('deepchat_settings_set_temperature', { temperature: 0.2 })
    expect(h.json(temp)).toMatchObject({ value: 0.2, previousValue: 0.7 })
    await approved('deepchat_settings_set_system_prompt', { systemPrompt: 'Answer in haiku.' })
    const session = h.presenters.sessions.require(h.sessionId)
    expect(session).toMatchObject({
      providerId: 'p2',
      modelId: 'm2',
      generationSettings: { temperature: 0.2, systemPrompt: 'Answer in haiku.' }
    })
  })

  it('a denied or unanswered request changes nothing', async () => {
    await expect(h.call('deepchat_settings_set_temperature', { temperature: 1.5 })).rejects.toBeInstanceOf(
      SettingsPermissionRequiredError
    )
    expect(h.presenters.sessions.require(h.sessionId).generationSettings.temperature).toBe(0.7)
  })

  it('permission mode: narrower without asking, never wider', async () => {
    const wider = await h.call('deepchat_settings_set_permission_mode', { permissionMode: 'full_access' })
    expect(wider.rawData.toolResult.error?.code).toBe('widening_not_allowed')
    expect(h.presenters.sessions.require(h.sessionId).permissionMode).toBe('accept_edits')
    const narrower = await h.call('deepchat_settings_set_permission_mode', { permissionMode: 'default' })
    expect(narrower.rawData.isError).toBe(false)
    expect(h.presenters.sessions.require(h.sessionId).permissionMode).toBe('default')
  })

  it('switches tools on and off for this session only', async () => {
    await approved('deepchat_settings_set_tools', { enable: ['tape_info'], disable: ['exec'] })
    const names = await h.toolNames()
    expect(names).toContain('tape_info')
    expect(names).not.toContain('exec')
    const info = h.json<{ sessionId: string }>(await h.call('tape_info', {}))
    expect(info.sessionId).toBe(h.sessionId)
    expect(
      (await h.call('exec', { command: 'echo hi', description: 'print hi' })).rawData.toolResult.error?.code
    ).toBe('unknown_tool')
    expect(await h.toolNames(h.newSession())).toContain('exec')
  })

  it('rejects bad values with a clear error and keeps the old ones', async () => {
    const unknownModel = await approved('deepchat_settings_set_model', { providerId: 'p1', modelId: 'nope' })
    expect(unknownModel.rawData.toolResult.error?.code).toBe('apply_failed')
    expect(h.text(unknownModel)).toContain('availableModels')
    expect(
      (await h.call('deepchat_settings_set_temperature', { temperature: 3 })).rawData.toolResult.error?.code
    ).toBe('invalid_arguments')
    expect((await h.call('deepchat_settings_set_tools', {})).rawData.toolResult.error?.code).toBe(
      'invalid_arguments'
    )
    const unknownTool = await approved('deepchat_settings_set_tools', { disable: ['teleport'] })
    expect(h.text(unknownTool)).toContain('No built-in tool named teleport')
    expect(h.presenters.sessions.require(h.sessionId)).toMatchObject({
      providerId: 'p1',
      modelId: 'm1',
      generationSettings: { temperature: 0.7 }
    })
  })
})
