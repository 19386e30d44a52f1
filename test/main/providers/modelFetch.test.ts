import { describe, expect, it } from 'vitest'
import { providersAdd, providersList, providersListModels } from '@shared/contracts/routes/providers.routes'
import { AUTO_ENABLE_LIMIT } from '../../../src/main/presenter/llmProviderPresenter/modelDefaults'
import { useFakeLlms, useHarness } from './helpers'

const harness = useHarness()
const fake = useFakeLlms()

const KEY = 'sk-or-v1-0123456789abcdef'

/** `vendor/model-NN` ids, like OpenRouter's list of hundreds. */
function manyModels(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `vendor${i % 7}/model-${String(i).padStart(3, '0')}`)
}

const enabledIds = (models: Array<{ id: string; enabled: boolean }>) =>
  models.filter((m) => m.enabled).map((m) => m.id)

describe('models fetched when a provider is added', () => {
  it('lists a huge catalogue but enables only the preset models (OpenRouter)', async () => {
    const { router } = harness()
    const catalogue = [...manyModels(300), 'openai/gpt-4.1', 'anthropic/claude-sonnet-4.5']
    const server = await fake({ kind: 'openai', models: catalogue, apiKey: KEY })

    const { provider, modelFetch } = await router.call(providersAdd, {
      provider: { presetId: 'openrouter', baseUrl: server.baseUrl, apiKey: KEY }
    })

    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models'])
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${KEY}`)
    // Every listed model is stored, plus the preset's deepseek/deepseek-r1 the fake does not list.
    expect(provider.models).toHaveLength(catalogue.length + 1)
    expect(enabledIds(provider.models).sort()).toEqual([
      'anthropic/claude-sonnet-4.5',
      'deepseek/deepseek-r1',
      'openai/gpt-4.1'
    ])
    expect(modelFetch).toEqual({ ok: true, listed: catalogue.length, enabled: 3 })

    // Stored, not only returned.
    const listed = await router.call(providersList, {})
    expect(enabledIds(listed.providers[0].models)).toHaveLength(3)
  })

  it('enables every model of a short list (Ollama, no key)', async () => {
    const { router } = harness()
    const server = await fake({ kind: 'ollama', models: ['llama3.1:8b', 'qwen3:4b'] })
    const { provider, modelFetch } = await router.call(providersAdd, {
      provider: { presetId: 'ollama', baseUrl: server.baseUrl }
    })
    expect(server.requests[0].path).toBe('/api/tags')
    expect(enabledIds(provider.models)).toEqual(['llama3.1:8b', 'qwen3:4b'])
    expect(modelFetch).toMatchObject({ ok: true, listed: 2, enabled: 2 })
  })

  it('enables the first models of a long list when the provider had none of them', async () => {
    const { router } = harness()
    const catalogue = manyModels(AUTO_ENABLE_LIMIT + 15)
    const server = await fake({ kind: 'openai', models: catalogue })
    const { provider } = await router.call(providersAdd, {
      provider: { presetId: 'custom', name: 'Big local server', baseUrl: server.baseUrl }
    })
    expect(provider.models).toHaveLength(catalogue.length)
    expect(enabledIds(provider.models)).toEqual([...catalogue].sort().slice(0, AUTO_ENABLE_LIMIT))
  })

  it('keeps the preset models and reports why when the list cannot be fetched', async () => {
    const { router } = harness()
    const server = await fake({ kind: 'openai', models: ['gpt-4o'], apiKey: 'sk-the-right-key-000' })
    const { provider, modelFetch } = await router.call(providersAdd, {
      provider: { presetId: 'openai', baseUrl: server.baseUrl, apiKey: 'sk-a-wrong-key-0000' }
    })
    expect(provider.id).toBe('openai')
    expect(provider.models.map((m) => m.id)).toEqual(['gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'o4-mini'])
    expect(modelFetch).toMatchObject({ ok: false, listed: 0, enabled: 4 })
    expect(modelFetch?.message).toMatch(/api key/i)
  })

  it('does not ask a remote provider for models before it has a key', async () => {
    const { router } = harness()
    const { provider, modelFetch } = await router.call(providersAdd, { provider: { presetId: 'mistral' } })
    expect(modelFetch).toBeNull()
    expect(provider.models.map((m) => m.id)).toEqual(['mistral-large-latest', 'mistral-small-latest'])
  })

  it('does not fetch when the models are given, unless asked to', async () => {
    const { router } = harness()
    const server = await fake({ kind: 'openai', models: ['a', 'b'] })
    const given = [{ id: 'a', name: 'A' }]
    const base = { kind: 'openai' as const, baseUrl: server.baseUrl, apiKey: KEY, models: given }
    const quiet = await router.call(providersAdd, { provider: { ...base, name: 'Quiet' } })
    expect(quiet.modelFetch).toBeNull()
    expect(server.requests).toHaveLength(0)

    const asked = await router.call(providersAdd, { provider: { ...base, name: 'Asked', fetchModels: true } })
    expect(asked.provider.models.map((m) => m.id)).toEqual(['a', 'b'])
    expect(server.requests).toHaveLength(1)
  })

  it('applies the same rule when the list is fetched again later', async () => {
    const { router } = harness()
    const catalogue = [...manyModels(100), 'openai/gpt-4.1']
    const server = await fake({ kind: 'openai', models: catalogue })
    await router.call(providersAdd, {
      provider: { presetId: 'openrouter', baseUrl: server.baseUrl, apiKey: KEY, fetchModels: false }
    })
    const { models } = await router.call(providersListModels, { id: 'openrouter' })
    expect(models).toHaveLength(101)
    expect(enabledIds(models)).toEqual(['openai/gpt-4.1'])
  })
})
