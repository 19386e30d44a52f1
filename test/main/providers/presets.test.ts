import { describe, expect, it } from 'vitest'
import type { LLMCoreStreamEvent } from '@shared/types/llm'
import {
  providersAdd,
  providersListModels,
  providersPresets
} from '@shared/contracts/routes/providers.routes'
import type { FakeScript } from '../../fixtures/llm/fakeLlm'
import { collect, request, textOf, useFakeLlms, useHarness } from './helpers'

const harness = useHarness()
const fake = useFakeLlms()
const KEY = 'sk-preset-0123456789abcd'
/** Presets on a vendor's OpenAI-compatible endpoint (no AI SDK package of their own). */
const OPENAI_COMPATIBLE = ['qwen', 'zhipu', 'moonshot', 'minimax', 'doubao']
/** Presets whose kind is an AI SDK package speaking the vendor's chat-completions wire. */
const PACKAGES = ['groq', 'mistral', 'xai', 'deepseek']

/** Adds preset `id` with its address swapped for a fake OpenAI-wire server. */
async function presetAgainstFake(
  id: string,
  script: FakeScript,
  models = ['vendor-model-a', 'vendor-model-b']
) {
  const { router, providers } = harness()
  const server = await fake({ kind: 'openai', models, script })
  await router.call(providersAdd, { provider: { presetId: id, baseUrl: server.baseUrl, apiKey: KEY } })
  await providers.updateProvider(id, { models: [{ id: 'vendor-model-a', name: 'A' }], maxRetries: 0 })
  const stream = async () =>
    collect(providers.coreStream(request(id, { modelId: 'vendor-model-a' }), new AbortController().signal))
  return { router, providers, server, stream }
}

describe('vendor presets', () => {
  it('point at the vendors over HTTPS, need a key, and use the package where there is one', async () => {
    const { router } = harness()
    const { presets } = await router.call(providersPresets, {})
    for (const id of [...OPENAI_COMPATIBLE, ...PACKAGES]) {
      const preset = presets.find((p) => p.presetId === id)
      expect(preset, id).toMatchObject({ requiresApiKey: true })
      expect(new URL(preset!.baseUrl).protocol, id).toBe('https:')
      expect(preset!.kind, id).toBe(PACKAGES.includes(id) ? id : 'openai-compatible')
    }
  })

  it.each([...OPENAI_COMPATIBLE, ...PACKAGES])(
    '%s: lists models and streams an answer, the key sent as a bearer token',
    async (id) => {
      const { router, server, stream } = await presetAgainstFake(id, [
        { steps: [{ type: 'text', text: ['Hello ', 'from ', id] }] }
      ])
      const { models } = await router.call(providersListModels, { id })
      expect(models.map((m) => m.id)).toEqual(['vendor-model-a', 'vendor-model-b'])
      const events = await stream()
      expect(textOf(events)).toBe(`Hello from ${id}`)
      expect(events.at(-1)).toEqual({ type: 'stop', stop_reason: 'complete' })
      const [sent] = server.generationRequests()
      expect(sent.headers.authorization).toBe(`Bearer ${KEY}`)
      expect(sent.body).toMatchObject({ model: 'vendor-model-a', stream: true })
    }
  )

  it.each(PACKAGES)('%s package: streams a tool call as the vendor sends it', async (id) => {
    // xAI sends each call whole in one frame; the others stream arguments split anywhere.
    const call = {
      id: 'call_1',
      name: 'get_weather',
      argumentChunks: ['{"ci', 'ty":"Paris"}'],
      whole: id === 'xai'
    }
    const { stream } = await presetAgainstFake(id, [{ steps: [{ type: 'tool_calls', calls: [call] }] }])
    const events = await stream()
    const end = events.find((e) => e.type === 'tool_call_end') as Extract<
      LLMCoreStreamEvent,
      { type: 'tool_call_end' }
    >
    expect(end).toMatchObject({ tool_call_id: 'call_1', tool_call_arguments_complete: '{"city":"Paris"}' })
    expect(events.find((e) => e.type === 'tool_call_start')).toMatchObject({ tool_call_name: 'get_weather' })
    expect(events.at(-1)).toEqual({ type: 'stop', stop_reason: 'tool_use' })
  })

  it.each(PACKAGES)('%s package: a 401 and a 429 keep their categories', async (id) => {
    const { stream } = await presetAgainstFake(id, [
      { status: 401, message: 'Invalid API key' },
      { status: 429, message: 'Too many requests', headers: { 'retry-after': '2' } }
    ])
    const auth = (await stream()).find((e) => e.type === 'error')
    expect(auth).toMatchObject({ category: 'auth', status: 401 })
    const limited = (await stream()).find((e) => e.type === 'error')
    expect(limited).toMatchObject({ category: 'rate_limited', status: 429, retry_after_ms: 2000 })
  })

  it('deepseek package: reasoning_content streams as reasoning before the answer', async () => {
    const { stream } = await presetAgainstFake('deepseek', [
      {
        steps: [
          { type: 'reasoning', text: ['Let me ', 'think.'] },
          { type: 'text', text: 'Answer.' }
        ]
      }
    ])
    const events = await stream()
    const reasoning = events
      .filter((e): e is Extract<LLMCoreStreamEvent, { type: 'reasoning' }> => e.type === 'reasoning')
      .map((e) => e.reasoning_content)
      .join('')
    expect(reasoning).toBe('Let me think.')
    expect(textOf(events)).toBe('Answer.')
  })
})
