import { describe, expect, it } from 'vitest'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import {
  providersAdd,
  providersList,
  providersListModels,
  providersPresets,
  providersRemove,
  providersSetDefault,
  providersUpdate,
  providersVerify
} from '@shared/contracts/routes/providers.routes'
import { maskApiKey } from '../../../src/main/presenter/llmProviderPresenter'
import { createPresenters } from '../../../src/main/presenter'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { useFakeLlms, useHarness } from './helpers'

const harness = useHarness()
const fake = useFakeLlms()

const KEY = 'sk-proj-SECRETSECRETSECRET-wxyz'

function dbBytes(dataDir: string): string {
  return readdirSync(dataDir)
    .filter((f) => f.startsWith('deepchat.db'))
    .map((f) => readFileSync(join(dataDir, f)).toString('latin1'))
    .join('')
}

describe('provider routes', () => {
  it('lists the presets, including Ollama on localhost without a key', async () => {
    const { router } = harness()
    const { presets } = await router.call(providersPresets, {})
    expect(presets.map((p) => p.presetId)).toEqual([
      'openai',
      'anthropic',
      'gemini',
      'deepseek',
      'ollama',
      'lmstudio',
      'openrouter',
      'siliconflow',
      'groq',
      'mistral',
      'xai',
      'qwen',
      'zhipu',
      'moonshot',
      'minimax',
      'doubao',
      'azure',
      'vertex',
      'bedrock',
      'custom'
    ])
    expect(presets.find((p) => p.presetId === 'ollama')).toMatchObject({
      kind: 'ollama',
      baseUrl: 'http://localhost:11434',
      requiresApiKey: false
    })
  })

  it('never returns an API key in clear, and keeps it out of SQLite', async () => {
    const { router, presenters, events } = harness()
    const added = await router.call(providersAdd, { provider: { presetId: 'deepseek', apiKey: KEY } })
    expect(added.provider).toMatchObject({
      id: 'deepseek',
      kind: 'deepseek',
      hasApiKey: true,
      apiKeyMasked: 'sk-…wxyz'
    })

    const listed = await router.call(providersList, {})
    const updated = await router.call(providersUpdate, { id: 'deepseek', patch: { name: 'DeepSeek (work)' } })
    for (const output of [added, listed, updated, events])
      expect(JSON.stringify(output)).not.toContain('SECRETSECRET')
    expect(listed.providers[0].apiKeyMasked).toBe('sk-…wxyz')
    expect(updated.provider.name).toBe('DeepSeek (work)')

    // The key lives in the secret store, not in the database file.
    expect(await presenters.config.getSecret('provider:deepseek:apiKey')).toBe(KEY)
    presenters.sqlite.db.pragma('wal_checkpoint(TRUNCATE)')
    expect(dbBytes(presenters.platform.userDataDir)).not.toContain('SECRETSECRET')
    expect(dbBytes(presenters.platform.userDataDir)).toContain('DeepSeek (work)')
  })

  it('masks short keys completely', () => {
    expect(maskApiKey('abc123')).toBe('••••')
    expect(maskApiKey('sk-ant-api03-abcdefgh-1234')).toBe('sk-…1234')
  })

  it('replaces and deletes a key through update, and removes it with the provider', async () => {
    const { router, presenters } = harness()
    await router.call(providersAdd, { provider: { presetId: 'openai', apiKey: KEY } })
    const replaced = await router.call(providersUpdate, {
      id: 'openai',
      patch: { apiKey: 'sk-new-key-000000009999' }
    })
    expect(replaced.provider.apiKeyMasked).toBe('sk-…9999')
    const cleared = await router.call(providersUpdate, { id: 'openai', patch: { apiKey: null } })
    expect(cleared.provider).toMatchObject({ hasApiKey: false, apiKeyMasked: null })

    await router.call(providersUpdate, { id: 'openai', patch: { apiKey: KEY } })
    expect(await router.call(providersRemove, { id: 'openai' })).toEqual({ removed: true })
    expect(await presenters.config.getSecret('provider:openai:apiKey')).toBeUndefined()
    expect((await router.call(providersList, {})).providers).toEqual([])
    expect(await router.call(providersRemove, { id: 'openai' })).toEqual({ removed: false })
  })

  it('keeps providers across a restart of the presenters', async () => {
    const { router, presenters } = harness()
    await router.call(providersAdd, {
      provider: {
        kind: 'openai-compatible',
        name: 'My vLLM',
        baseUrl: 'http://10.0.0.5:8000/v1',
        apiKey: KEY
      }
    })
    const dataDir = presenters.platform.userDataDir
    await presenters.dispose()
    const restarted = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
    const [provider] = await restarted.llmProviders.listProviders()
    await restarted.dispose()
    expect(provider).toMatchObject({
      id: 'my-vllm',
      name: 'My vLLM',
      custom: true,
      requiresApiKey: true,
      hasApiKey: true
    })
  })

  it('rejects bad input with a clear error and changes nothing', async () => {
    const { router } = harness()
    await expect(
      router.call(providersAdd, { provider: { kind: 'openai', name: 'x', baseUrl: 'ftp://nope' } })
    ).rejects.toMatchObject({
      code: 'invalid_input'
    })
    await expect(router.call(providersAdd, { provider: { name: 'no kind' } as never })).rejects.toMatchObject(
      { code: 'invalid_input' }
    )
    await expect(router.call(providersAdd, { provider: { presetId: 'nope' } })).rejects.toMatchObject({
      code: 'not_found'
    })
    await expect(router.call(providersUpdate, { id: 'ghost', patch: { name: 'x' } })).rejects.toMatchObject({
      code: 'not_found'
    })
    await router.call(providersAdd, { provider: { presetId: 'ollama' } })
    await expect(
      router.call(providersAdd, { provider: { presetId: 'ollama', id: 'ollama' } })
    ).rejects.toMatchObject({ code: 'conflict' })
    const second = await router.call(providersAdd, { provider: { presetId: 'ollama' } })
    expect(second.provider.id).toBe('ollama-2')
    expect((await router.call(providersList, {})).providers).toHaveLength(2)
  })

  it('sets the default model only to a model that exists, and clears it when the model or provider goes', async () => {
    const { router, events } = harness()
    await router.call(providersAdd, { provider: { presetId: 'anthropic', apiKey: KEY } })
    await expect(
      router.call(providersSetDefault, {
        defaultModel: { providerId: 'anthropic', modelId: 'no-such-model' }
      })
    ).rejects.toMatchObject({ code: 'not_found' })
    const set = await router.call(providersSetDefault, {
      defaultModel: { providerId: 'anthropic', modelId: 'claude-sonnet-4-5' }
    })
    expect(set.defaultModel).toEqual({ providerId: 'anthropic', modelId: 'claude-sonnet-4-5' })
    expect((await router.call(providersList, {})).defaultModel).toEqual(set.defaultModel)
    expect(events.some((e) => e.name === 'providers.default.changed')).toBe(true)

    // Dropping the model from the provider's list clears the default too.
    await router.call(providersUpdate, {
      id: 'anthropic',
      patch: { models: [{ id: 'claude-opus-4-1', name: 'Opus' }] }
    })
    expect((await router.call(providersList, {})).defaultModel).toBeNull()

    await router.call(providersSetDefault, {
      defaultModel: { providerId: 'anthropic', modelId: 'claude-opus-4-1' }
    })
    await router.call(providersRemove, { id: 'anthropic' })
    expect((await router.call(providersList, {})).defaultModel).toBeNull()
  })
})

describe('verify and listModels', () => {
  it('verifies a good key and reports a bad one as auth', async () => {
    const { router } = harness()
    const server = await fake({ kind: 'openai', apiKey: KEY, models: ['gpt-4o'] })
    await router.call(providersAdd, {
      provider: { kind: 'openai', name: 'OpenAI test', baseUrl: server.baseUrl, apiKey: KEY }
    })
    expect(await router.call(providersVerify, { id: 'openai-test' })).toMatchObject({ ok: true })
    const bad = await router.call(providersVerify, { id: 'openai-test', apiKey: 'sk-wrong-000000000000' })
    expect(bad).toMatchObject({ ok: false, code: 'auth' })
    // Verification is the model list: no tokens are spent.
    expect(server.requests.every((r) => r.method === 'GET' && r.path === '/v1/models')).toBe(true)
  })

  it('reports a provider that cannot be reached as network', async () => {
    const { router } = harness()
    const server = await fake({ kind: 'anthropic' })
    await router.call(providersAdd, {
      provider: { kind: 'anthropic', name: 'Gone', baseUrl: server.baseUrl, apiKey: KEY }
    })
    await server.close()
    expect(await router.call(providersVerify, { id: 'gone' })).toMatchObject({ ok: false, code: 'network' })
  })

  it('verifies a remote provider without a key as auth without calling it', async () => {
    const { router } = harness()
    await router.call(providersAdd, { provider: { presetId: 'gemini' } })
    expect(await router.call(providersVerify, { id: 'gemini' })).toMatchObject({ ok: false, code: 'auth' })
  })

  it('lists OpenAI-style /models merged with known metadata', async () => {
    const { router } = harness()
    const server = await fake({ kind: 'openai', models: ['gpt-4o-2024-08-06', 'o4-mini', 'my-finetune'] })
    await router.call(providersAdd, {
      provider: { kind: 'openai', name: 'OAI', baseUrl: server.baseUrl, apiKey: KEY, fetchModels: false }
    })
    const { models } = await router.call(providersListModels, { id: 'oai' })
    expect(models.map((m) => m.id)).toEqual(['gpt-4o-2024-08-06', 'my-finetune', 'o4-mini'])
    expect(models[0]).toMatchObject({ known: true, vision: true, contextLength: 128_000 })
    expect(models[1]).toMatchObject({ known: false, name: 'my-finetune', vision: false })
    expect(models[2]).toMatchObject({ known: true, reasoning: true, contextLength: 200_000 })
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${KEY}`)
  })

  it('lists Anthropic models with their display names', async () => {
    const { router } = harness()
    const server = await fake({
      kind: 'anthropic',
      models: ['claude-sonnet-4-5-20250929', 'claude-new-thing']
    })
    await router.call(providersAdd, {
      provider: { kind: 'anthropic', name: 'A', baseUrl: server.baseUrl, apiKey: KEY, fetchModels: false }
    })
    const { models } = await router.call(providersListModels, { id: 'a' })
    expect(models.map((m) => [m.id, m.known, m.reasoning])).toEqual([
      ['claude-new-thing', false, false],
      ['claude-sonnet-4-5-20250929', true, true]
    ])
    expect(server.requests[0].headers['x-api-key']).toBe(KEY)
    expect(server.requests[0].headers['anthropic-version']).toBe('2023-06-01')
  })

  it('lists Gemini models that can generate content, with their token limits', async () => {
    const { router } = harness()
    const server = await fake({ kind: 'gemini', models: ['gemini-2.5-flash', 'embedding-001', 'gemini-exp'] })
    await router.call(providersAdd, {
      provider: { kind: 'gemini', name: 'G', baseUrl: server.baseUrl, apiKey: KEY, fetchModels: false }
    })
    const { models } = await router.call(providersListModels, { id: 'g' })
    expect(models.map((m) => m.id)).toEqual(['gemini-2.5-flash', 'gemini-exp'])
    expect(models[1]).toMatchObject({ contextLength: 1_048_576, maxOutputTokens: 65_536, known: false })
  })

  it('lists Ollama tags without a key', async () => {
    const { router } = harness()
    const server = await fake({ kind: 'ollama', models: ['llama3.1:8b', 'qwen3:4b'] })
    await router.call(providersAdd, { provider: { presetId: 'ollama', baseUrl: server.baseUrl } })
    const { models } = await router.call(providersListModels, { id: 'ollama' })
    expect(models.map((m) => [m.id, m.known])).toEqual([
      ['llama3.1:8b', true],
      ['qwen3:4b', true]
    ])
    expect(server.requests[0].path).toBe('/api/tags')
    expect(server.requests[0].headers.authorization).toBeUndefined()
  })

  it('prefers the settings saved for a model over known metadata', async () => {
    const { router } = harness()
    const server = await fake({ kind: 'openai', models: ['gpt-4o'] })
    await router.call(providersAdd, {
      provider: {
        kind: 'openai',
        name: 'O',
        baseUrl: server.baseUrl,
        apiKey: KEY,
        models: [
          {
            id: 'gpt-4o',
            name: 'My 4o',
            contextLength: 1000,
            maxOutputTokens: 100,
            vision: false,
            toolCalling: true,
            reasoning: false,
            enabled: false
          }
        ]
      }
    })
    const { models } = await router.call(providersListModels, { id: 'o' })
    expect(models[0]).toMatchObject({ name: 'My 4o', contextLength: 1000, enabled: false })
  })

  it('turns a failing model list into a typed route error', async () => {
    const { router } = harness()
    const server = await fake({ kind: 'openai', modelsResponse: { status: 500, message: 'down' } })
    await router.call(providersAdd, {
      provider: { kind: 'openai', name: 'O', baseUrl: server.baseUrl, apiKey: KEY }
    })
    await expect(router.call(providersListModels, { id: 'o' })).rejects.toMatchObject({
      code: 'provider_server'
    })
  })
})
