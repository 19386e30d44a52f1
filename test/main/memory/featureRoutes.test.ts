import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  imageGenerationGetModel,
  imageGenerationSetModel,
  memoryForget,
  memoryList,
  memorySetEnabled,
  skillsList
} from '@shared/contracts/routes/agentFeatures.routes'
import { sessionsPurge } from '@shared/contracts/routes/sessions.routes'
import { createRouter } from '../../../src/main/routes'
import { createFeatureHarness, type FeatureHarness } from '../tools/featureHarness'

let h: FeatureHarness
let router: ReturnType<typeof createRouter>
beforeEach(() => {
  h = createFeatureHarness()
  router = createRouter(h.presenters)
})
afterEach(async () => {
  await h.close()
})

describe('memory, skills and image-model routes', () => {
  it('lists and forgets memories and switches memory off and on', async () => {
    await h.call('memory_remember', { content: 'Prefers dark roast coffee' })
    const listed = await router.call(memoryList, { agentId: 'deepchat', limit: 10 })
    expect(listed.memories.map((m) => m.content)).toEqual(['Prefers dark roast coffee'])
    expect(listed.settings.enabled).toBe(true)
    expect(
      (await router.call(memoryForget, { agentId: 'deepchat', memoryId: listed.memories[0].id })).removed
    ).toBe(true)
    expect(
      (await router.call(memoryForget, { agentId: 'deepchat', memoryId: listed.memories[0].id })).removed
    ).toBe(false)
    expect((await router.call(memorySetEnabled, { enabled: false })).settings.enabled).toBe(false)
    expect(await h.toolNames()).not.toContain('memory_remember')
    await expect(router.call(memorySetEnabled, { enabled: 'yes' } as never)).rejects.toMatchObject({
      code: 'invalid_input'
    })
  })

  it('lists skills with the folders that failed to load', async () => {
    const { skills } = await router.call(skillsList, { workspaceDir: null })
    expect(skills.map((s) => s.name)).toEqual(expect.arrayContaining(['code-review', 'deepchat-settings']))
  })

  it('sets the image model only to a provider that can draw', async () => {
    expect((await router.call(imageGenerationGetModel, {})).model).toBeNull()
    await h.presenters.llmProviders.addProvider({
      id: 'claude',
      kind: 'anthropic',
      name: 'Claude',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: 'sk-ant-0123456789abcd'
    })
    await expect(
      router.call(imageGenerationSetModel, { model: { providerId: 'claude', modelId: 'x' } })
    ).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(
      router.call(imageGenerationSetModel, { model: { providerId: 'nope', modelId: 'x' } })
    ).rejects.toMatchObject({ code: 'not_found' })
    await h.presenters.llmProviders.addProvider({
      id: 'oai',
      kind: 'openai',
      name: 'OpenAI',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: 'sk-0123456789abcdef'
    })
    await router.call(imageGenerationSetModel, { model: { providerId: 'oai', modelId: 'gpt-image-1' } })
    expect((await router.call(imageGenerationGetModel, {})).model).toEqual({
      providerId: 'oai',
      modelId: 'gpt-image-1'
    })
    expect(await h.toolNames()).toContain('image_generate')
  })

  it('a purged session takes its skill and tool state with it', async () => {
    await h.call('skill_view', { name: 'code-review' })
    const count = () =>
      (
        h.presenters.sqlite.db
          .prepare('SELECT count(*) AS n FROM session_agent_state WHERE session_id = ?')
          .get(h.sessionId) as { n: number }
      ).n
    expect(count()).toBe(1)
    await router.call(sessionsPurge, { sessionId: h.sessionId })
    expect(count()).toBe(0)
  })
})
