import { describe, expect, it } from 'vitest'
import {
  providersAdd,
  providersListModels,
  providersPresets
} from '@shared/contracts/routes/providers.routes'
import { collect, request, textOf, useFakeLlms, useHarness } from './helpers'

const harness = useHarness()
const fake = useFakeLlms()
const KEY = 'sk-preset-0123456789abcd'
const OPENAI_COMPATIBLE = ['groq', 'mistral', 'xai', 'qwen', 'zhipu', 'moonshot', 'minimax', 'doubao']

describe('OpenAI-compatible vendor presets', () => {
  it('point at the vendors over HTTPS and need a key', async () => {
    const { router } = harness()
    const { presets } = await router.call(providersPresets, {})
    for (const id of OPENAI_COMPATIBLE) {
      const preset = presets.find((p) => p.presetId === id)
      expect(preset, id).toMatchObject({ kind: 'openai-compatible', requiresApiKey: true })
      expect(new URL(preset!.baseUrl).protocol, id).toBe('https:')
    }
  })

  it.each(OPENAI_COMPATIBLE)(
    '%s: streams an answer and lists models with the key as a bearer token',
    async (id) => {
      const { router, providers } = harness()
      const server = await fake({
        kind: 'openai',
        models: ['vendor-model-a', 'vendor-model-b'],
        script: [{ steps: [{ type: 'text', text: ['Hello ', 'from ', id] }] }]
      })
      // The preset's own settings with the address swapped for the fake server.
      await router.call(providersAdd, { provider: { presetId: id, baseUrl: server.baseUrl, apiKey: KEY } })
      const { models } = await router.call(providersListModels, { id })
      expect(models.map((m) => m.id)).toEqual(['vendor-model-a', 'vendor-model-b'])
      await providers.updateProvider(id, { models: [{ id: 'vendor-model-a', name: 'A' }] })
      const events = await collect(
        providers.coreStream(request(id, { modelId: 'vendor-model-a' }), new AbortController().signal)
      )
      expect(textOf(events)).toBe(`Hello from ${id}`)
      expect(server.generationRequests()[0].headers.authorization).toBe(`Bearer ${KEY}`)
      expect(server.generationRequests()[0].body).toMatchObject({ model: 'vendor-model-a', stream: true })
    }
  )
})
