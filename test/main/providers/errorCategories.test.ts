import { describe, expect, it } from 'vitest'
import { createServer } from 'node:net'
import type { LLMCoreStreamEvent } from '@shared/types/llm'
import type { ProviderKind } from '@shared/types/provider'
import type { FakeLlmKind, FakeScript } from '../../fixtures/llm/fakeLlm'
import { LlmProviderPresenter } from '../../../src/main/presenter/llmProviderPresenter'
import { addProviderFor, collect, request, textOf, useFakeLlms, useHarness } from './helpers'

/**
 * Every provider failure reaches the chat loop with the category the user is told about, over
 * each wire format the app speaks (fake servers answer with the provider's own error bodies).
 */
const harness = useHarness()
const fake = useFakeLlms()

const WIRES: Array<{ wire: string; provider: ProviderKind; server: FakeLlmKind }> = [
  { wire: 'OpenAI', provider: 'openai', server: 'openai' },
  { wire: 'OpenAI-compatible', provider: 'openai-compatible', server: 'openai' },
  { wire: 'Anthropic', provider: 'anthropic', server: 'anthropic' },
  { wire: 'Gemini', provider: 'gemini', server: 'gemini' }
]
type Wire = (typeof WIRES)[number]
type ErrorEvent = Extract<LLMCoreStreamEvent, { type: 'error' }>
type RetryEvent = Extract<LLMCoreStreamEvent, { type: 'retry' }>

async function stream(
  wire: Wire,
  script: FakeScript,
  options: { maxRetries?: number; idleMs?: number } = {}
) {
  const { presenters } = harness()
  // Real backoff timing except where a test shortens the idle timeout.
  const providers = new LlmProviderPresenter({
    config: presenters.config,
    events: presenters.events,
    retry: { baseDelayMs: 5, maxDelayMs: 5_000, ...(options.idleMs ? { idleTimeoutMs: options.idleMs } : {}) }
  })
  const server = await fake({ kind: wire.server, script })
  const id = await addProviderFor(providers, wire.provider, server, { maxRetries: options.maxRetries ?? 0 })
  const events = await collect(providers.coreStream(request(id), new AbortController().signal))
  return { events, server, providers }
}

function errorOf(events: LLMCoreStreamEvent[]): ErrorEvent {
  const errors = events.filter((e): e is ErrorEvent => e.type === 'error')
  expect(errors).toHaveLength(1)
  expect(events.at(-1)).toEqual({ type: 'stop', stop_reason: 'error' })
  return errors[0]
}

function retriesOf(events: LLMCoreStreamEvent[]): RetryEvent[] {
  return events.filter((e): e is RetryEvent => e.type === 'retry')
}

describe.each(WIRES)('error categories over $wire', (wire) => {
  it('429 → rate_limited, with the wait the provider asked for', async () => {
    const { events } = await stream(wire, [
      { status: 429, message: 'Slow down', headers: { 'retry-after': '7' } }
    ])
    expect(errorOf(events)).toMatchObject({ category: 'rate_limited', status: 429, retry_after_ms: 7000 })
  })

  it('503 → overloaded, and its Retry-After is carried like a 429', async () => {
    const { events } = await stream(wire, [{ status: 503, message: 'Busy', headers: { 'retry-after': '3' } }])
    expect(errorOf(events)).toMatchObject({ category: 'overloaded', status: 503, retry_after_ms: 3000 })
  })

  it('500 → server', async () => {
    const { events } = await stream(wire, [{ status: 500, message: 'Boom' }])
    expect(errorOf(events)).toMatchObject({ category: 'server', status: 500, error_message: 'Boom' })
  })

  it('401 → auth', async () => {
    const { events } = await stream(wire, [{ status: 401, message: 'Invalid key' }])
    expect(errorOf(events)).toMatchObject({ category: 'auth', status: 401 })
  })

  it("400 → bad_request with the provider's own message", async () => {
    const message = "Unsupported value: 'temperature' does not support 3 with this model."
    const { events } = await stream(wire, [{ status: 400, message }])
    expect(errorOf(events)).toMatchObject({ category: 'bad_request', status: 400, error_message: message })
  })

  it('400 about the context window → context_too_long', async () => {
    const message =
      "This model's maximum context length is 128000 tokens. However, you requested 130000 tokens."
    const { events } = await stream(wire, [{ status: 400, message }])
    expect(errorOf(events)).toMatchObject({ code: 'context_overflow', category: 'context_too_long' })
  })

  it('a dropped connection → network', async () => {
    const { events } = await stream(wire, [{ steps: [{ type: 'text', text: 'Half' }, { type: 'drop' }] }])
    expect(textOf(events)).toBe('Half')
    expect(errorOf(events)).toMatchObject({ code: 'network', category: 'network' })
  })

  it('a refused connection → network', async () => {
    const { providers } = harness()
    const port = await freePort()
    const id = await addProviderFor(providers, wire.provider, {
      baseUrl: `http://127.0.0.1:${port}${wire.server === 'gemini' ? '/v1beta' : '/v1'}`
    } as never)
    const events = await collect(providers.coreStream(request(id), new AbortController().signal))
    expect(errorOf(events).category).toBe('network')
  })

  it('a stream that goes silent → timeout', async () => {
    const { events } = await stream(
      wire,
      [{ steps: [{ type: 'text', text: 'Thinking' }, { type: 'stall' }] }],
      {
        idleMs: 300
      }
    )
    expect(errorOf(events)).toMatchObject({ category: 'timeout' })
  })

  it('408 → timeout', async () => {
    const { events } = await stream(wire, [{ status: 408, message: 'Request timed out' }])
    expect(errorOf(events)).toMatchObject({ category: 'timeout', status: 408 })
  })
})

describe('overload inside the stream and on Anthropic', () => {
  const anthropic = WIRES[2]
  it('Anthropic 529 → overloaded', async () => {
    const { events } = await stream(anthropic, [
      { status: 529, message: 'Overloaded', errorType: 'overloaded_error' }
    ])
    expect(errorOf(events)).toMatchObject({ category: 'overloaded', status: 529 })
  })

  it('an overloaded_error event inside the stream → overloaded', async () => {
    const { events } = await stream(anthropic, [
      {
        steps: [
          { type: 'text', text: 'Hi' },
          { type: 'stream_error', errorType: 'overloaded_error', message: 'Overloaded' }
        ]
      }
    ])
    expect(errorOf(events)).toMatchObject({ category: 'overloaded' })
  })
})

describe('retries are announced', () => {
  const openai = WIRES[0]
  it('announces each retry with its wait and category, then streams the answer', async () => {
    const { events, server } = await stream(
      openai,
      [
        { status: 429, message: 'Slow down' },
        { status: 500 },
        { steps: [{ type: 'text', text: 'Finally' }] }
      ],
      { maxRetries: 2 }
    )
    expect(server.generationRequests()).toHaveLength(3)
    expect(retriesOf(events)).toEqual([
      {
        type: 'retry',
        attempt: 1,
        max_retries: 2,
        delay_ms: 5,
        category: 'rate_limited',
        error_message: 'Slow down'
      },
      {
        type: 'retry',
        attempt: 2,
        max_retries: 2,
        delay_ms: 10,
        category: 'server',
        error_message: expect.any(String)
      }
    ])
    expect(textOf(events)).toBe('Finally')
  })

  it('honours Retry-After on a 503 before retrying', async () => {
    const { events, server } = await stream(
      openai,
      [{ status: 503, headers: { 'retry-after': '1' } }, { steps: [{ type: 'text', text: 'Back' }] }],
      { maxRetries: 1 }
    )
    expect(retriesOf(events)).toMatchObject([{ delay_ms: 1000, category: 'overloaded' }])
    const [first, second] = server.generationRequests()
    const firstAt = first.clientClosedAt ?? first.finishedAt ?? 0
    expect(second.finishedAt! - firstAt).toBeGreaterThanOrEqual(950)
    expect(textOf(events)).toBe('Back')
  })

  it('never announces a retry for errors it does not retry', async () => {
    const { events } = await stream(openai, [{ status: 401 }, { status: 400 }], { maxRetries: 2 })
    expect(retriesOf(events)).toEqual([])
  })
})

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
