import { describe, expect, it } from 'vitest'
import type { LLMMessage } from '@shared/types/llm'
import type { ProviderKind } from '@shared/types/provider'
import type { FakeLlmKind } from '../../fixtures/llm/fakeLlm'
import { addProviderFor, collect, request, useFakeLlms, useHarness, WEATHER_TOOL } from './helpers'

const harness = useHarness()
const fake = useFakeLlms()

const PNG = Buffer.from('png-bytes').toString('base64')
const SHOT = Buffer.from('screenshot-bytes').toString('base64')

function conversation(reasoningSignature?: Record<string, Record<string, unknown>>): LLMMessage[] {
  return [
    { role: 'system', content: 'You are terse.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture, and the weather in Paris?' },
        { type: 'image', data: PNG, mimeType: 'image/png' }
      ]
    },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Need the weather tool.', providerOptions: reasoningSignature },
        { type: 'text', text: 'A cat. Checking the weather.' }
      ],
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]
    },
    { role: 'tool', toolCallId: 'call_1', toolName: 'get_weather', content: '{"tempC":21}' }
  ]
}

async function sendAndCapture(provider: ProviderKind, server: FakeLlmKind, messages: LLMMessage[]) {
  const { providers } = harness()
  const llm = await fake({ kind: server, script: [{ steps: [{ type: 'text', text: 'Sunny, 21C.' }] }] })
  const id = await addProviderFor(providers, provider, llm)
  const events = await collect(
    providers.coreStream(
      request(id, { messages, tools: [WEATHER_TOOL], temperature: 0.3, maxTokens: 256 }),
      new AbortController().signal
    )
  )
  expect(events.at(-1)).toEqual({ type: 'stop', stop_reason: 'complete' })
  const [sent] = llm.generationRequests()
  return { body: sent.body as Record<string, unknown>, sent }
}

describe('the next request carries tool results and images in each provider format', () => {
  it('OpenAI chat completions: image_url data URL, assistant tool_calls, role tool', async () => {
    const { body, sent } = await sendAndCapture('openai', 'openai', conversation())
    expect(sent.path).toBe('/v1/chat/completions')
    expect(sent.headers.authorization).toBe('Bearer sk-test-0123456789abcd')
    expect(body).toMatchObject({ model: 'fake-model', stream: true, temperature: 0.3, max_tokens: 256 })
    const messages = body.messages as Array<Record<string, unknown>>
    expect(messages[0]).toEqual({ role: 'system', content: 'You are terse.' })
    expect(messages[1]).toMatchObject({
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture, and the weather in Paris?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }
      ]
    })
    expect(messages[2]).toMatchObject({
      role: 'assistant',
      content: 'A cat. Checking the weather.',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }
      ]
    })
    expect(messages[3]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '{"tempC":21}' })
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather for a city',
          parameters: expect.objectContaining({ required: ['city'] })
        }
      }
    ])
  })

  it('Anthropic messages: base64 image block, signed thinking, tool_use then tool_result', async () => {
    const { body, sent } = await sendAndCapture(
      'anthropic',
      'anthropic',
      conversation({ anthropic: { signature: 'sig-abc' } })
    )
    expect(sent.path).toBe('/v1/messages')
    expect(sent.headers['x-api-key']).toBe('sk-test-0123456789abcd')
    expect(body.system).toEqual([{ type: 'text', text: 'You are terse.' }])
    const messages = body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>
    expect(messages[0].content[1]).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG }
    })
    expect(messages[1].role).toBe('assistant')
    expect(messages[1].content).toEqual([
      { type: 'thinking', thinking: 'Need the weather tool.', signature: 'sig-abc' },
      { type: 'text', text: 'A cat. Checking the weather.' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }
    ])
    expect(messages[2]).toMatchObject({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '{"tempC":21}' }]
    })
  })

  it('Gemini: inlineData image, functionCall echoed, functionResponse with the result', async () => {
    const { body, sent } = await sendAndCapture('gemini', 'gemini', conversation())
    expect(sent.path).toBe('/v1beta/models/fake-model:streamGenerateContent?alt=sse')
    expect(sent.headers['x-goog-api-key']).toBe('sk-test-0123456789abcd')
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'You are terse.' }] })
    const contents = body.contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>
    expect(contents[0].parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: PNG } })
    expect(contents[1].role).toBe('model')
    expect(contents[1].parts).toContainEqual({
      functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Paris' } }
    })
    expect(contents[2].parts[0]).toMatchObject({
      functionResponse: { name: 'get_weather', response: { name: 'get_weather', content: '{"tempC":21}' } }
    })
  })

  it('sends an image returned by a tool back to Anthropic inside the tool_result', async () => {
    const messages: LLMMessage[] = [
      ...conversation({ anthropic: { signature: 's' } }).slice(0, 3),
      {
        role: 'tool',
        toolCallId: 'call_1',
        toolName: 'get_weather',
        content: [
          { type: 'text', text: 'radar:' },
          { type: 'image', data: SHOT, mimeType: 'image/png' }
        ]
      }
    ]
    const { body } = await sendAndCapture('anthropic', 'anthropic', messages)
    const last = (body.messages as Array<{ content: Array<{ type: string; content: unknown }> }>).at(-1)!
    expect(last.content[0].type).toBe('tool_result')
    expect(last.content[0].content).toEqual([
      { type: 'text', text: 'radar:' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: SHOT } }
    ])
  })

  it('repairs broken tool-call JSON from history instead of failing the request', async () => {
    const messages = conversation()
    ;(messages[2] as { toolCalls: Array<{ arguments: string }> }).toolCalls[0].arguments = '{"city":"Paris"'
    const { body } = await sendAndCapture('openai', 'openai', messages)
    const assistant = (body.messages as Array<{ tool_calls?: Array<{ function: { arguments: string } }> }>)[2]
    expect(JSON.parse(assistant.tool_calls![0].function.arguments)).toEqual({ city: 'Paris' })
  })
})

describe('reasoning switches in each provider format', () => {
  async function bodyFor(
    provider: ProviderKind,
    server: FakeLlmKind,
    reasoning: { enabled: boolean; budgetTokens?: number; effort?: 'low' | 'medium' | 'high' }
  ) {
    const { providers } = harness()
    const llm = await fake({ kind: server, script: [{ steps: [{ type: 'text', text: 'ok' }] }] })
    const id = await addProviderFor(providers, provider, llm)
    await collect(
      providers.coreStream(request(id, { reasoning, maxTokens: 20_000 }), new AbortController().signal)
    )
    return llm.generationRequests()[0].body as Record<string, unknown>
  }

  it('Anthropic: thinking enabled with a budget', async () => {
    const body = await bodyFor('anthropic', 'anthropic', { enabled: true, budgetTokens: 2048 })
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 })
  })

  it('Gemini: includeThoughts with a budget, or a zero budget to turn thinking off', async () => {
    const on = await bodyFor('gemini', 'gemini', { enabled: true, budgetTokens: 1024 })
    expect((on.generationConfig as Record<string, unknown>).thinkingConfig).toEqual({
      includeThoughts: true,
      thinkingBudget: 1024
    })
    const off = await bodyFor('gemini', 'gemini', { enabled: false })
    expect((off.generationConfig as Record<string, unknown>).thinkingConfig).toEqual({ thinkingBudget: 0 })
  })

  it('OpenAI-compatible: reasoning_effort', async () => {
    const body = await bodyFor('openai-compatible', 'openai', { enabled: true, effort: 'high' })
    expect(body.reasoning_effort).toBe('high')
  })
})

describe('images returned by tools on chat completions', () => {
  it('moves them into one user message after the tool results, leaving a note in each result', async () => {
    const messages: LLMMessage[] = [
      { role: 'user', content: 'Compare the radars' },
      {
        role: 'assistant',
        content: [],
        toolCalls: [
          { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}' }
        ]
      },
      {
        role: 'tool',
        toolCallId: 'call_1',
        toolName: 'get_weather',
        content: [
          { type: 'text', text: 'Paris radar' },
          { type: 'image', data: PNG, mimeType: 'image/png' }
        ]
      },
      {
        role: 'tool',
        toolCallId: 'call_2',
        toolName: 'get_weather',
        content: [{ type: 'image', data: SHOT, mimeType: 'image/jpeg' }]
      }
    ]
    const { body } = await sendAndCapture('openai-compatible', 'openai', messages)
    const sent = body.messages as Array<{ role: string; content: unknown; tool_call_id?: string }>
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user'])
    expect(sent[2]).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: 'Paris radar\n[1 image from this result follows in the next message]'
    })
    expect(sent[3].content).toBe('[1 image from this result follows in the next message]')
    expect(JSON.stringify(sent.slice(0, 4))).not.toContain(PNG)
    expect(sent[4].content).toEqual([
      { type: 'text', text: 'Images returned by get_weather (call call_1):' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      { type: 'text', text: 'Images returned by get_weather (call call_2):' },
      { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${SHOT}` } }
    ])
  })
})

describe('images returned by tools on Gemini', () => {
  it('sends them as inlineData beside the functionResponse', async () => {
    const messages: LLMMessage[] = [
      { role: 'user', content: 'Radar please' },
      {
        role: 'assistant',
        content: [],
        toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]
      },
      {
        role: 'tool',
        toolCallId: 'call_1',
        toolName: 'get_weather',
        content: [
          { type: 'text', text: 'radar:' },
          { type: 'image', data: SHOT, mimeType: 'image/png' }
        ]
      }
    ]
    const { body } = await sendAndCapture('gemini', 'gemini', messages)
    const last = (body.contents as Array<{ parts: Array<Record<string, unknown>> }>).at(-1)!
    expect(last.parts[0]).toMatchObject({ functionResponse: { id: 'call_1', name: 'get_weather' } })
    expect(last.parts).toContainEqual({ inlineData: { mimeType: 'image/png', data: SHOT } })
  })
})
