import { describe, expect, it } from 'vitest'
import { createServer } from 'node:net'
import type { LLMCoreStreamEvent } from '@shared/types/llm'
import type { ProviderKind } from '@shared/types/provider'
import type { FakeLlmKind, FakeScript } from '../../fixtures/llm/fakeLlm'
import { LlmProviderPresenter } from '../../../src/main/presenter/llmProviderPresenter'
import { DEFAULT_RETRY } from '../../../src/main/presenter/llmProviderPresenter/coreStream'
import { addProviderFor, collect, request, textOf, useFakeLlms, useHarness } from './helpers'

const harness = useHarness()
const fake = useFakeLlms()

const WIRES: Array<{ wire: string; provider: ProviderKind; server: FakeLlmKind }> = [
  { wire: 'OpenAI chat completions', provider: 'openai', server: 'openai' },
  { wire: 'OpenAI-compatible', provider: 'openai-compatible', server: 'openai' },
  { wire: 'Anthropic messages', provider: 'anthropic', server: 'anthropic' },
  { wire: 'Gemini', provider: 'gemini', server: 'gemini' }
]

async function streamAgainst(
  wire: (typeof WIRES)[number],
  script: FakeScript,
  options: { maxRetries?: number; signal?: AbortSignal } = {}
) {
  const { providers } = harness()
  const server = await fake({ kind: wire.server, script })
  const id = await addProviderFor(providers, wire.provider, server, { maxRetries: options.maxRetries ?? 0 })
  const events = await collect(
    providers.coreStream(request(id), options.signal ?? new AbortController().signal)
  )
  return { events, server }
}

function errorOf(events: LLMCoreStreamEvent[]) {
  const errors = events.filter((e) => e.type === 'error')
  expect(errors).toHaveLength(1)
  expect(events.at(-1)).toEqual({ type: 'stop', stop_reason: 'error' })
  expect(events.at(-2)).toBe(errors[0])
  return errors[0] as Extract<LLMCoreStreamEvent, { type: 'error' }>
}

describe.each(WIRES)('faults over $wire never throw and become typed errors', (wire) => {
  it('401 → auth', async () => {
    const { events } = await streamAgainst(wire, [{ status: 401, message: 'Invalid key' }])
    expect(events).toHaveLength(2)
    expect(errorOf(events)).toMatchObject({ code: 'auth', status: 401, error_message: 'Invalid key' })
  })

  it('429 with retry-after → rate_limit carrying the wait', async () => {
    const { events } = await streamAgainst(wire, [
      { status: 429, message: 'Slow down', headers: { 'retry-after': '7' } }
    ])
    expect(errorOf(events)).toMatchObject({ code: 'rate_limit', status: 429, retry_after_ms: 7000 })
  })

  it('500 → server', async () => {
    const { events } = await streamAgainst(wire, [{ status: 500, message: 'Boom' }])
    expect(errorOf(events)).toMatchObject({ code: 'server', status: 500 })
  })

  it('400 about the context window → context_overflow', async () => {
    const message =
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens."
    const { events } = await streamAgainst(wire, [{ status: 400, message }])
    expect(errorOf(events)).toMatchObject({ code: 'context_overflow', status: 400 })
  })

  it('a connection dropped mid-stream → network, after the text that did arrive', async () => {
    const { events } = await streamAgainst(wire, [
      { steps: [{ type: 'text', text: ['Partial ', 'answer'] }, { type: 'drop' }] }
    ])
    expect(textOf(events)).toBe('Partial answer')
    expect(errorOf(events).code).toBe('network')
  })

  it('a malformed chunk → invalid_response', async () => {
    const { events } = await streamAgainst(wire, [
      { steps: [{ type: 'text', text: 'Hi' }, { type: 'malformed' }, { type: 'text', text: 'more' }] }
    ])
    expect(errorOf(events).code).toBe('invalid_response')
  })

  it('a refused connection → network', async () => {
    const { providers } = harness()
    const port = await freePort()
    const id = await addProviderFor(providers, wire.provider, {
      baseUrl: `http://127.0.0.1:${port}${wire.server === 'gemini' ? '/v1beta' : '/v1'}`
    } as never)
    const events = await collect(providers.coreStream(request(id), new AbortController().signal))
    expect(errorOf(events).code).toBe('network')
  })

  it('abort during a stall ends the stream within 100 ms and closes the socket', async () => {
    const { providers } = harness()
    const script = {
      steps: [{ type: 'text' as const, text: 'Thinking about it' }, { type: 'stall' as const }]
    }
    const server = await fake({ kind: wire.server, script: [script, script, script] })
    const id = await addProviderFor(providers, wire.provider, server)
    // Best of three: a busy shared machine can delay any single timer by more than the
    // budget; a stream that waited for the stalled socket would miss it every time.
    const timings: number[] = []
    for (let attempt = 0; attempt < 3 && !timings.some((t) => t < 100); attempt++) {
      const controller = new AbortController()
      const events: LLMCoreStreamEvent[] = []
      let abortedAt = 0
      for await (const event of providers.coreStream(request(id), controller.signal)) {
        events.push(event)
        if (event.type === 'text' && abortedAt === 0) {
          // Let the stall settle, then abort while nothing is arriving.
          setTimeout(() => {
            abortedAt = performance.now()
            controller.abort()
          }, 150)
        }
      }
      expect(abortedAt).toBeGreaterThan(0)
      timings.push(performance.now() - abortedAt)
      expect(errorOf(events).code).toBe('aborted')
      const served = server.requests[attempt]
      await expect.poll(() => served.clientClosedAt, { timeout: 100, interval: 5 }).toBeDefined()
    }
    expect(Math.min(...timings)).toBeLessThan(100)
  })
})

describe('retries', () => {
  const openai = WIRES[0]
  const anthropic = WIRES[2]

  it.each([openai, anthropic, WIRES[3]])(
    'retries 500s before the first token and then succeeds ($wire)',
    async (wire) => {
      const { events, server } = await streamAgainst(
        wire,
        [{ status: 500 }, { status: 503 }, { steps: [{ type: 'text', text: 'Finally' }] }],
        { maxRetries: 2 }
      )
      expect(server.generationRequests()).toHaveLength(3)
      expect(textOf(events)).toBe('Finally')
      expect(events.some((e) => e.type === 'error')).toBe(false)
      expect(events.at(-1)).toEqual({ type: 'stop', stop_reason: 'complete' })
    }
  )

  it('gives up after the configured number of retries', async () => {
    const { events, server } = await streamAgainst(
      openai,
      [{ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }],
      {
        maxRetries: 2
      }
    )
    expect(server.generationRequests()).toHaveLength(3)
    expect(errorOf(events).code).toBe('server')
  })

  it('uses two retries by default', async () => {
    const { providers } = harness()
    const server = await fake({
      kind: 'openai',
      script: [{ status: 502 }, { status: 502 }, { status: 502 }, { status: 502 }]
    })
    const view = await providers.addProvider({
      kind: 'openai',
      name: 'Default retries',
      baseUrl: server.baseUrl,
      apiKey: 'sk-x-0123456789'
    })
    expect(view.maxRetries).toBe(2)
    const events = await collect(providers.coreStream(request(view.id), new AbortController().signal))
    expect(server.generationRequests()).toHaveLength(3)
    expect(errorOf(events).code).toBe('server')
  })

  it('never retries auth errors', async () => {
    const { events, server } = await streamAgainst(
      openai,
      [{ status: 401 }, { steps: [{ type: 'text', text: 'no' }] }],
      { maxRetries: 2 }
    )
    expect(server.generationRequests()).toHaveLength(1)
    expect(errorOf(events).code).toBe('auth')
  })

  it.each([openai, anthropic])(
    'does not retry a server error that comes after the first token ($wire)',
    async (wire) => {
      const { events, server } = await streamAgainst(
        wire,
        [
          {
            steps: [
              { type: 'text', text: 'Half an ans' },
              { type: 'stream_error', errorType: 'server_error', message: 'Overloaded' }
            ]
          },
          { steps: [{ type: 'text', text: 'Second try' }] }
        ],
        { maxRetries: 2 }
      )
      expect(server.generationRequests()).toHaveLength(1)
      expect(textOf(events)).toBe('Half an ans')
      expect(errorOf(events).code).toBe('server')
    }
  )

  it('retries an in-stream overloaded error that comes before any token (Anthropic)', async () => {
    const { events, server } = await streamAgainst(
      anthropic,
      [
        { steps: [{ type: 'stream_error', errorType: 'overloaded_error', message: 'Overloaded' }] },
        { steps: [{ type: 'text', text: 'Ok now' }] }
      ],
      { maxRetries: 2 }
    )
    expect(server.generationRequests()).toHaveLength(2)
    expect(textOf(events)).toBe('Ok now')
  })

  it('waits for retry-after before retrying a 429', async () => {
    const { events, server } = await streamAgainst(
      openai,
      [{ status: 429, headers: { 'retry-after': '1' } }, { steps: [{ type: 'text', text: 'Done' }] }],
      { maxRetries: 2 }
    )
    const [first, second] = server.generationRequests()
    expect(textOf(events)).toBe('Done')
    expect(second).toBeDefined()
    // The recorded times are the response ends; the second request starts after the wait.
    const firstAt = first.clientClosedAt ?? first.finishedAt ?? 0
    expect(second.finishedAt! - firstAt).toBeGreaterThanOrEqual(950)
  })

  it('stops waiting for a retry as soon as the request is aborted', async () => {
    const { providers } = harness()
    const server = await fake({
      kind: 'openai',
      script: [{ status: 429, headers: { 'retry-after': '20' } }, { steps: [] }]
    })
    const id = await addProviderFor(providers, 'openai', server, { maxRetries: 2 })
    const controller = new AbortController()
    const done = collect(providers.coreStream(request(id), controller.signal))
    await server.waitForRequests(1)
    // The 429 is fully sent: from here the client reads it and waits out its retry-after.
    await expect
      .poll(() => server.generationRequests()[0].finishedAt, { timeout: 5_000, interval: 5 })
      .toBeDefined()
    const abortedAt = performance.now()
    controller.abort()
    const events = await done
    // The wait was 20 s; ending within a second (generous for a busy machine) proves it stopped.
    expect(performance.now() - abortedAt).toBeLessThan(1000)
    expect(server.generationRequests()).toHaveLength(1)
    expect(errorOf(events).code).toBe('aborted')
  })
})

describe('requests coreStream refuses without calling the provider', () => {
  it('reports an unknown provider as an error event', async () => {
    const { providers } = harness()
    const events = await collect(providers.coreStream(request('nope'), new AbortController().signal))
    expect(errorOf(events)).toMatchObject({ code: 'invalid_request' })
  })

  it('reports a missing key as auth without a network call', async () => {
    const { providers } = harness()
    // A remote base URL needs a key (local servers do not); nothing is sent without one.
    const view = await providers.addProvider({ presetId: 'openai' })
    const events = await collect(providers.coreStream(request(view.id), new AbortController().signal))
    expect(errorOf(events).code).toBe('auth')
  })

  it('reports an invalid request (no messages) as invalid_request', async () => {
    const { providers } = harness()
    const events = await collect(
      providers.coreStream(request('x', { messages: [] }), new AbortController().signal)
    )
    expect(errorOf(events).code).toBe('invalid_request')
  })

  it('reports garbage instead of a request as invalid_request', async () => {
    const { providers } = harness()
    for (const garbage of [
      null,
      42,
      { providerId: 'x' },
      { providerId: 'x', modelId: 'm', messages: [{ role: 'robot' }] }
    ]) {
      const events = await collect(providers.coreStream(garbage as never, new AbortController().signal))
      expect(errorOf(events).code).toBe('invalid_request')
    }
  })

  it('refuses a disabled provider', async () => {
    const { providers } = harness()
    const server = await fake({ kind: 'openai', script: [{ steps: [{ type: 'text', text: 'x' }] }] })
    const id = await addProviderFor(providers, 'openai', server)
    await providers.updateProvider(id, { enabled: false })
    const events = await collect(providers.coreStream(request(id), new AbortController().signal))
    expect(errorOf(events)).toMatchObject({
      code: 'invalid_request',
      error_message: expect.stringContaining('disabled')
    })
    expect(server.requests).toHaveLength(0)
  })

  it('reports an already-aborted signal as aborted', async () => {
    const { providers } = harness()
    const server = await fake({ kind: 'openai', script: [{ steps: [{ type: 'text', text: 'x' }] }] })
    const id = await addProviderFor(providers, 'openai', server)
    const events = await collect(providers.coreStream(request(id), AbortSignal.abort()))
    expect(errorOf(events).code).toBe('aborted')
    expect(server.requests).toHaveLength(0)
  })
})

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as { port: number }).port
      probe.close(() => resolve(port))
    })
  })
}

describe('a consumer that stops early', () => {
  it.each(['openai', 'anthropic', 'gemini'] as const)(
    'closes the HTTP request when iteration stops (%s)',
    async (kind) => {
      const { providers } = harness()
      const server = await fake({
        kind,
        script: [{ steps: [{ type: 'text', text: 'first words' }, { type: 'stall' }] }]
      })
      const id = await addProviderFor(providers, kind, server)
      for await (const event of providers.coreStream(request(id), new AbortController().signal)) {
        if (event.type === 'text') break
      }
      await expect.poll(() => server.requests[0].clientClosedAt, { timeout: 200, interval: 5 }).toBeDefined()
    }
  )
})

describe('a stall nobody aborts', () => {
  it('fails as network once nothing has arrived for the idle timeout', async () => {
    const { presenters } = harness()
    const providers = new LlmProviderPresenter({
      config: presenters.config,
      events: presenters.events,
      retry: { baseDelayMs: 5, idleTimeoutMs: 300 }
    })
    const server = await fake({
      kind: 'anthropic',
      script: [
        {
          steps: [
            { type: 'text', text: 'a' },
            { type: 'delay', ms: 150 },
            { type: 'text', text: 'b' },
            { type: 'delay', ms: 150 },
            { type: 'text', text: 'c' },
            { type: 'stall' }
          ]
        }
      ]
    })
    const id = await addProviderFor(providers, 'anthropic', server)
    const started = performance.now()
    const events = await collect(providers.coreStream(request(id), new AbortController().signal))
    // Slow but steady deltas are not a stall; the silence after the last one is.
    expect(textOf(events)).toBe('abc')
    expect(errorOf(events)).toMatchObject({
      code: 'network',
      error_message: expect.stringContaining('sent nothing')
    })
    expect(performance.now() - started).toBeLessThan(2000)
    await expect.poll(() => server.requests[0].clientClosedAt, { timeout: 200, interval: 5 }).toBeDefined()
  })

  it("ends a request that is accepted and never answered after the provider's own idle timeout, as no_response", async () => {
    const { presenters } = harness()
    // No idle timing from the app: the provider's setting is what ends it.
    const providers = new LlmProviderPresenter({ config: presenters.config, events: presenters.events })
    const server = await fake({ kind: 'openai', script: [{ steps: [{ type: 'stall' }] }] })
    const view = await providers.addProvider({
      id: 'stuck',
      kind: 'openai-compatible',
      name: 'Stuck gateway',
      baseUrl: server.baseUrl,
      apiKey: 'sk-test-0123456789abcd',
      models: [{ id: 'fake-model', name: 'Fake model' }],
      idleTimeoutSeconds: 1
    })
    const started = performance.now()
    const events = await collect(providers.coreStream(request(view.id), new AbortController().signal))
    expect(errorOf(events)).toMatchObject({ code: 'network', category: 'no_response' })
    expect(performance.now() - started).toBeGreaterThanOrEqual(900)
    expect(performance.now() - started).toBeLessThan(4000)
    // The app's default stays well under the 300 s a stuck gateway used to hold a chat.
    expect(DEFAULT_RETRY.idleTimeoutMs).toBeLessThanOrEqual(60_000)
  })
})
