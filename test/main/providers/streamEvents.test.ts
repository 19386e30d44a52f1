import { describe, expect, it } from 'vitest'
import type { LLMCoreStreamEvent } from '@shared/types/llm'
import type { ProviderKind } from '@shared/types/provider'
import type { FakeLlmKind, ScriptStep } from '../../fixtures/llm/fakeLlm'
import { mapFinishReason } from '../../../src/main/presenter/llmProviderPresenter/streamAdapter'
import {
  addProviderFor,
  collect,
  reasoningOf,
  request,
  textOf,
  TIME_TOOL,
  useFakeLlms,
  useHarness,
  WEATHER_TOOL
} from './helpers'

const harness = useHarness()
const fake = useFakeLlms()

interface WireCase {
  wire: string
  provider: ProviderKind
  server: FakeLlmKind
  /** Whether the wire carries reasoning the provider reads. */
  reasoning: boolean
  /** Gemini sends whole calls and has no call ids of its own. */
  streamsArguments: boolean
  /** Only Anthropic says that a stop sequence ended the reply; the others send a plain stop. */
  namesStopSequence?: boolean
}

const WIRES: WireCase[] = [
  {
    wire: 'OpenAI chat completions (openai-compatible, reasoning_content)',
    provider: 'openai-compatible',
    server: 'openai',
    reasoning: true,
    streamsArguments: true
  },
  {
    wire: 'OpenAI chat completions (openai kind)',
    provider: 'openai',
    server: 'openai',
    reasoning: false,
    streamsArguments: true
  },
  {
    wire: 'Ollama (OpenAI-compatible /v1 under the Ollama root)',
    provider: 'ollama',
    server: 'ollama',
    reasoning: true,
    streamsArguments: true
  },
  {
    wire: 'Anthropic messages',
    provider: 'anthropic',
    server: 'anthropic',
    reasoning: true,
    streamsArguments: true,
    namesStopSequence: true
  },
  {
    wire: 'Gemini streamGenerateContent',
    provider: 'gemini',
    server: 'gemini',
    reasoning: true,
    streamsArguments: false
  }
]

const FULL_TURN: ScriptStep[] = [
  { type: 'reasoning', text: ['The user ', 'wants weather.'] },
  { type: 'text', text: ['Let me ', 'check.'] },
  {
    type: 'tool_calls',
    calls: [
      { id: 'call_1', name: 'get_weather', argumentChunks: ['{"ci', 'ty":"Pa', 'ris"}'] },
      { id: 'call_2', name: 'get_time', argumentChunks: ['{"zo', 'ne":"CET"}'] }
    ]
  },
  { type: 'usage', promptTokens: 42, completionTokens: 17 }
]

async function run(wire: WireCase, steps: ScriptStep[]): Promise<LLMCoreStreamEvent[]> {
  const { providers } = harness()
  const server = await fake({ kind: wire.server, script: [{ steps }] })
  const id = await addProviderFor(providers, wire.provider, server)
  return collect(
    providers.coreStream(request(id, { tools: [WEATHER_TOOL, TIME_TOOL] }), new AbortController().signal)
  )
}

function toolCalls(events: LLMCoreStreamEvent[]) {
  const calls = new Map<
    string,
    { name: string; chunks: string; complete?: string; startedBeforeEnd: boolean }
  >()
  for (const e of events) {
    if (e.type === 'tool_call_start')
      calls.set(e.tool_call_id, { name: e.tool_call_name, chunks: '', startedBeforeEnd: true })
    if (e.type === 'tool_call_chunk') calls.get(e.tool_call_id)!.chunks += e.tool_call_arguments_chunk
    if (e.type === 'tool_call_end') calls.get(e.tool_call_id)!.complete = e.tool_call_arguments_complete
  }
  return [...calls.entries()].map(([id, c]) => ({ id, ...c }))
}

describe.each(WIRES)('coreStream over $wire', (wire) => {
  it('maps reasoning, text, parallel tool calls split mid-JSON, usage and a tool_use stop', async () => {
    const events = await run(wire, FULL_TURN)

    expect(reasoningOf(events)).toBe(wire.reasoning ? 'The user wants weather.' : '')
    expect(textOf(events)).toBe('Let me check.')
    const calls = toolCalls(events)
    expect(calls.map((c) => [c.name, c.complete])).toEqual([
      ['get_weather', '{"city":"Paris"}'],
      ['get_time', '{"zone":"CET"}']
    ])
    for (const call of calls) expect(call.chunks).toBe(call.complete)
    if (wire.streamsArguments) {
      expect(calls.map((c) => c.id)).toEqual(['call_1', 'call_2'])
      // The split pieces arrive as separate chunks, not re-joined.
      const weatherChunks = events.filter((e) => e.type === 'tool_call_chunk' && e.tool_call_id === 'call_1')
      expect(weatherChunks.length).toBe(3)
    } else {
      expect(new Set(calls.map((c) => c.id)).size).toBe(2)
    }

    const usage = events.find((e) => e.type === 'usage')
    expect(usage).toEqual({
      type: 'usage',
      usage: { prompt_tokens: 42, completion_tokens: 17, total_tokens: 59 }
    })
    expect(events.slice(-2).map((e) => e.type)).toEqual(['usage', 'stop'])
    expect(events.at(-1)).toEqual({ type: 'stop', stop_reason: 'tool_use' })
    expect(events.some((e) => e.type === 'error')).toBe(false)
  })

  it('orders every tool_call_chunk between its start and its end', async () => {
    const events = await run(wire, FULL_TURN)
    const open = new Set<string>()
    const closed = new Set<string>()
    for (const e of events) {
      if (e.type === 'tool_call_start') open.add(e.tool_call_id)
      if (e.type === 'tool_call_chunk')
        expect(open.has(e.tool_call_id) && !closed.has(e.tool_call_id)).toBe(true)
      if (e.type === 'tool_call_end') closed.add(e.tool_call_id)
    }
    expect(closed.size).toBe(2)
  })

  it('hands back calls with cut-off JSON or an unknown tool name as they are, without an error', async () => {
    const events = await run(wire, [
      {
        type: 'tool_calls',
        calls: [
          // Gemini sends parsed objects, so its "bad" call is valid JSON of the wrong type.
          {
            id: 'call_1',
            name: 'get_weather',
            argumentChunks: wire.streamsArguments ? ['{"city": "Pa'] : ['{"city":1}']
          },
          { id: 'call_2', name: 'no_such_tool', argumentChunks: ['{}'] }
        ]
      },
      { type: 'finish', reason: wire.streamsArguments ? 'max_tokens' : 'stop' }
    ])
    expect(toolCalls(events).map((c) => [c.name, c.complete])).toEqual([
      ['get_weather', wire.streamsArguments ? '{"city": "Pa' : '{"city":1}'],
      ['no_such_tool', '{}']
    ])
    expect(events.some((e) => e.type === 'error')).toBe(false)
    expect(events.at(-1)).toEqual({
      type: 'stop',
      stop_reason: wire.streamsArguments ? 'max_tokens' : 'tool_use'
    })
  })

  it('ends a plain answer with stop complete', async () => {
    const events = await run(wire, [{ type: 'text', text: 'Hi there' }])
    expect(textOf(events)).toBe('Hi there')
    expect(events.at(-1)).toEqual({ type: 'stop', stop_reason: 'complete' })
  })

  it('reports max_tokens when the reply was cut by the length limit', async () => {
    const events = await run(wire, [
      { type: 'text', text: 'Once upon a' },
      { type: 'finish', reason: 'max_tokens' }
    ])
    expect(events.at(-1)).toEqual({ type: 'stop', stop_reason: 'max_tokens' })
  })

  it('reports stop_sequence where the wire names it, complete where it cannot tell', async () => {
    const events = await run(wire, [
      { type: 'text', text: 'Step one' },
      { type: 'finish', reason: 'stop_sequence' }
    ])
    expect(textOf(events)).toBe('Step one')
    expect(events.at(-1)).toEqual({
      type: 'stop',
      stop_reason: wire.namesStopSequence ? 'stop_sequence' : 'complete'
    })
  })
})

describe('provider-specific events', () => {
  it('keeps the Anthropic thinking signature on a reasoning event so it can be sent back', async () => {
    const events = await run(WIRES[3], [
      { type: 'reasoning', text: 'Hmm.', signature: 'sig-123' },
      { type: 'text', text: 'Ok' }
    ])
    const signed = events.find((e) => e.type === 'reasoning' && e.provider_options !== undefined)
    expect(signed).toMatchObject({
      type: 'reasoning',
      provider_options: { anthropic: { signature: 'sig-123' } }
    })
  })

  it('turns a Gemini inline image into image_data', async () => {
    const png = Buffer.from('fake-png-bytes').toString('base64')
    const events = await run(WIRES[4], [
      { type: 'text', text: 'Here is a picture:' },
      { type: 'image', data: png, mimeType: 'image/png' }
    ])
    expect(events.find((e) => e.type === 'image_data')).toEqual({
      type: 'image_data',
      image_data: { data: png, mimeType: 'image/png' }
    })
    expect(events.at(-1)).toEqual({ type: 'stop', stop_reason: 'complete' })
  })

  it('reports cached prompt tokens when the provider gives them', async () => {
    const events = await run(WIRES[0], [
      { type: 'text', text: 'Hi' },
      { type: 'usage', promptTokens: 100, completionTokens: 5, cachedTokens: 80 }
    ])
    expect(events.find((e) => e.type === 'usage')).toMatchObject({
      usage: { prompt_tokens: 100, cached_tokens: 80 }
    })
  })

  it('maps SDK finish reasons to stop reasons', () => {
    expect(mapFinishReason('tool-calls')).toBe('tool_use')
    expect(mapFinishReason('length')).toBe('max_tokens')
    expect(mapFinishReason('stop', 'stop_sequence')).toBe('stop_sequence')
    expect(mapFinishReason('stop', 'end_turn')).toBe('complete')
    expect(mapFinishReason('error')).toBe('error')
    expect(mapFinishReason('content-filter')).toBe('complete')
  })
})
