import { afterEach } from 'vitest'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createRouter } from '../../../src/main/routes'
import { LlmProviderPresenter } from '../../../src/main/presenter/llmProviderPresenter'
import type { LLMCoreStreamEvent, LLMRequest } from '@shared/types/llm'
import type { ProviderKind } from '@shared/types/provider'
import { startFakeLlm, type FakeLlm, type FakeLlmOptions } from '../../fixtures/llm/fakeLlm'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()

export interface Harness {
  presenters: Presenters
  router: ReturnType<typeof createRouter>
  /** A presenter with near-zero backoff, sharing the same config and events. */
  providers: LlmProviderPresenter
  events: Array<{ name: string; payload: unknown }>
}

/** Real presenters (SQLite + file secret store) on a temp dir; closed after each test. */
export function useHarness(): () => Harness {
  const open: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (const close of open.splice(0)) await close()
  })
  return () => {
    const presenters = createPresenters(createNodePlatform({ dataDir: tempDir(), log: () => {} }), {
      log: () => {}
    })
    const events: Harness['events'] = []
    presenters.events.subscribe((name, payload) => events.push({ name, payload }))
    open.push(() => presenters.dispose())
    const providers = new LlmProviderPresenter({
      config: presenters.config,
      events: presenters.events,
      retry: { baseDelayMs: 5, maxDelayMs: 5_000 }
    })
    return { presenters, router: createRouter(presenters), providers, events }
  }
}

/** Fake servers started in a test, closed after it. */
export function useFakeLlms(): (options: FakeLlmOptions) => Promise<FakeLlm> {
  const servers: FakeLlm[] = []
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close()
  })
  return async (options) => {
    const server = await startFakeLlm(options)
    servers.push(server)
    return server
  }
}

/** Adds a provider of `kind` pointing at `server`, with a key. */
export async function addProviderFor(
  providers: LlmProviderPresenter,
  kind: ProviderKind,
  server: FakeLlm,
  extra: { id?: string; apiKey?: string; maxRetries?: number } = {}
): Promise<string> {
  const view = await providers.addProvider({
    id: extra.id ?? `fake-${kind}`,
    kind,
    name: `Fake ${kind}`,
    baseUrl: server.baseUrl,
    apiKey: extra.apiKey ?? 'sk-test-0123456789abcd',
    models: [{ id: 'fake-model', name: 'Fake model' }],
    maxRetries: extra.maxRetries
  })
  return view.id
}

export function request(providerId: string, overrides: Partial<LLMRequest> = {}): LLMRequest {
  return {
    providerId,
    modelId: 'fake-model',
    messages: [{ role: 'user', content: 'Hello' }],
    ...overrides
  }
}

export async function collect(stream: AsyncIterable<LLMCoreStreamEvent>): Promise<LLMCoreStreamEvent[]> {
  const events: LLMCoreStreamEvent[] = []
  for await (const event of stream) events.push(event)
  return events
}

export function textOf(events: LLMCoreStreamEvent[]): string {
  return events.map((e) => (e.type === 'text' ? e.content : '')).join('')
}

export function reasoningOf(events: LLMCoreStreamEvent[]): string {
  return events.map((e) => (e.type === 'reasoning' ? e.reasoning_content : '')).join('')
}

export const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] }
}
export const TIME_TOOL = {
  name: 'get_time',
  description: 'Local time in a zone',
  parameters: { type: 'object' as const, properties: { zone: { type: 'string' } }, required: ['zone'] }
}
