import { describe, expect, it } from 'vitest'
import {
  providersAdd,
  providersList,
  providersUpdate,
  providersVerify
} from '@shared/contracts/routes/providers.routes'
import { collect, request, textOf, useFakeLlms, useHarness } from './helpers'

const harness = useHarness()
const fake = useFakeLlms()
const KEY = 'azure-key-0123456789abcdef'

/** The Azure preset pointed at a fake OpenAI-wire server standing in for the resource. */
async function azureAgainstFake(settings: { apiVersion?: string; deploymentUrls?: boolean } = {}) {
  const { router, providers } = harness()
  const server = await fake({
    kind: 'openai',
    apiKey: KEY,
    models: ['gpt-4o'],
    script: [{ steps: [{ type: 'text', text: ['Hello ', 'from ', 'Azure'] }] }]
  })
  const { provider, modelFetch } = await router.call(providersAdd, {
    provider: { presetId: 'azure', baseUrl: `${server.origin}/openai`, apiKey: KEY, settings }
  })
  await router.call(providersUpdate, {
    id: provider.id,
    patch: { models: [{ id: 'my-gpt4o-deployment', name: 'GPT-4o (prod)' }], maxRetries: 0 }
  })
  const stream = () =>
    collect(
      providers.coreStream(
        request(provider.id, { modelId: 'my-gpt4o-deployment' }),
        new AbortController().signal
      )
    )
  return { router, server, provider, modelFetch, stream }
}

describe('Azure OpenAI (@ai-sdk/azure)', () => {
  it('streams from /openai/v1/chat/completions with the deployment as the model and an api-key header', async () => {
    const { server, stream } = await azureAgainstFake()
    const events = await stream()
    expect(textOf(events)).toBe('Hello from Azure')
    expect(events.at(-1)).toEqual({ type: 'stop', stop_reason: 'complete' })
    const [sent] = server.generationRequests()
    expect(sent.path).toBe('/openai/v1/chat/completions')
    expect(sent.headers['api-key']).toBe(KEY)
    expect(sent.headers.authorization).toBeUndefined()
    expect(sent.body).toMatchObject({ model: 'my-gpt4o-deployment', stream: true })
  })

  it('uses the deployment URL with its api-version when asked to', async () => {
    const { server, stream } = await azureAgainstFake({
      deploymentUrls: true,
      apiVersion: '2025-01-01-preview'
    })
    expect(textOf(await stream())).toBe('Hello from Azure')
    const [sent] = server.generationRequests()
    expect(sent.path).toBe(
      '/openai/deployments/my-gpt4o-deployment/chat/completions?api-version=2025-01-01-preview'
    )
    expect(sent.headers['api-key']).toBe(KEY)
  })

  it('defaults the api-version of deployment URLs to a GA version', async () => {
    const { server, stream } = await azureAgainstFake({ deploymentUrls: true })
    await stream()
    expect(server.generationRequests()[0].path).toMatch(/\?api-version=2024-10-21$/)
  })

  it('does not fetch models on add (requests name deployments), and verifies the key with the v1 model list', async () => {
    const { router, server, provider, modelFetch } = await azureAgainstFake()
    expect(modelFetch).toBeNull()
    expect(server.requests).toHaveLength(0)

    expect(await router.call(providersVerify, { id: provider.id })).toMatchObject({ ok: true })
    expect(server.requests[0].path).toBe('/openai/v1/models')
    expect(server.requests[0].headers['api-key']).toBe(KEY)
    expect(
      await router.call(providersVerify, { id: provider.id, apiKey: 'wrong-key-0000000000' })
    ).toMatchObject({ ok: false, code: 'auth' })
  })

  it('keeps the settings and masks the key', async () => {
    const { router } = await azureAgainstFake({ deploymentUrls: true, apiVersion: '2024-06-01' })
    const { providers } = await router.call(providersList, {})
    expect(providers[0]).toMatchObject({
      kind: 'azure',
      settings: { deploymentUrls: true, apiVersion: '2024-06-01' },
      apiKeyMasked: 'azu…cdef'
    })
    expect(JSON.stringify(providers)).not.toContain(KEY)
  })

  it('rejects an api-version that could change the URL', async () => {
    const { router } = harness()
    await expect(
      router.call(providersAdd, {
        provider: { presetId: 'azure', apiKey: KEY, settings: { apiVersion: '1&x=/../y' } }
      })
    ).rejects.toThrow(/apiVersion/)
  })
})
