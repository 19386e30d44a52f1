import { afterEach, describe, expect, it } from 'vitest'
import { chatSendMessage } from '@shared/contracts/routes/chat.routes'
import { webSearchUpdateSettings } from '@shared/contracts/routes/webSearch.routes'
import type { WebSearchMode } from '@shared/types/webSearch'
import type { ProviderKind } from '@shared/types/provider'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createRouter } from '../../../src/main/routes'
import {
  startFakeLlm,
  type FakeLlm,
  type FakeLlmKind,
  type FakeScript,
  type RecordedRequest,
  type ScriptStep
} from '../../fixtures/llm/fakeLlm'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()
const CTX = { transport: 'test' as const, clientId: 'test' }
const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** What every provider's search "found": two web pages and a link no one may open. */
const FOUND = [
  { url: 'https://kyoto.example/autumn', title: 'Kyoto autumn leaves' },
  { url: 'javascript:alert(1)', title: 'Click me' },
  { url: 'https://forecast.example/maple', title: 'Maple forecast' }
]
const SEARCH: ScriptStep = {
  type: 'web_search',
  query: 'kyoto autumn leaves peak',
  results: FOUND,
  text: 'Late November, peaking around Nov 25.'
}
const CITED = [
  {
    index: 1,
    title: 'Kyoto autumn leaves',
    site: 'kyoto.example',
    url: 'https://kyoto.example/autumn',
    snippet: ''
  },
  {
    index: 2,
    title: 'Maple forecast',
    site: 'forecast.example',
    url: 'https://forecast.example/maple',
    snippet: ''
  }
]

interface Setup {
  presenters: Presenters
  llm: FakeLlm
  send(webSearch?: WebSearchMode): Promise<{ sessionId: string; assistantMessageId: string }>
}

/** Real presenters with one provider on a fake server of `wire`, and the app's engine set up too. */
async function setup(
  wire: FakeLlmKind,
  provider: { id: string; kind: ProviderKind; model: string },
  steps: ScriptStep[] | FakeScript = [SEARCH]
): Promise<Setup> {
  const llm = await startFakeLlm({
    kind: wire,
    script: typeof steps === 'function' ? steps : () => ({ steps: steps as ScriptStep[] })
  })
  cleanups.push(() => llm.close())
  const presenters = createPresenters(createNodePlatform({ dataDir: tempDir(), log: () => {} }), {
    log: () => {}
  })
  cleanups.push(() => presenters.dispose())
  const router = createRouter(presenters)
  await presenters.llmProviders.addProvider({
    id: provider.id,
    kind: provider.kind,
    name: 'Fake',
    baseUrl: llm.baseUrl,
    apiKey: 'sk-test-0123456789abcd',
    models: [{ id: provider.model, name: provider.model }],
    maxRetries: 0
  })
  // The app's own engine is ready, so web_search would be offered if nothing hid it.
  await router.call(webSearchUpdateSettings, {
    patch: { engine: 'searxng', endpoints: { searxng: 'http://127.0.0.1:9/' } }
  })
  return {
    presenters,
    llm,
    async send(webSearch) {
      const result = await router.invoke(
        chatSendMessage.name,
        {
          text: 'when do the leaves turn in Kyoto?',
          newSession: {
            providerId: provider.id,
            modelId: provider.model,
            workspaceDir: null,
            ...(webSearch ? { generationSettings: { webSearch } } : {})
          }
        },
        CTX
      )
      if (!result.ok) throw new Error(JSON.stringify(result.error))
      const sent = chatSendMessage.output.parse(result.data) as {
        sessionId: string
        assistantMessageId: string
      }
      await presenters.agentRuntime.idle(sent.sessionId)
      return sent
    }
  }
}

function body(request: RecordedRequest): Record<string, unknown> {
  return request.body as Record<string, unknown>
}

/** Names of the function tools a request offered, in any of the three wire formats. */
function functionToolNames(request: RecordedRequest): string[] {
  const tools = (body(request).tools ?? []) as Array<Record<string, unknown>>
  return tools.flatMap((t) => {
    if (t.type === 'function') return [String((t.function as { name?: string })?.name ?? t.name)]
    if (Array.isArray(t.functionDeclarations))
      return (t.functionDeclarations as Array<{ name: string }>).map((d) => d.name)
    if (t.input_schema) return [String(t.name)]
    return []
  })
}

function sourcesOf(setup: Setup, messageId: string) {
  const message = setup.presenters.sessions.messages.require(messageId)
  expect(message.status).toBe('sent')
  return message.blocks.flatMap((b) => (b.kind === 'content' ? (b.data?.sources ?? []) : []))
}

describe("a provider's own web search", () => {
  it('OpenAI: the Responses API with its web_search tool; url_citation annotations become the sources block, javascript: dropped', async () => {
    const s = await setup('openai', { id: 'openai', kind: 'openai', model: 'gpt-4.1' })
    const { assistantMessageId } = await s.send('provider')
    const [request] = s.llm.generationRequests()
    expect(request.path).toBe('/v1/responses')
    expect(body(request).tools).toContainEqual(expect.objectContaining({ type: 'web_search' }))
    expect(functionToolNames(request)).not.toContain('web_search')
    expect(functionToolNames(request)).toContain('read')
    expect(sourcesOf(s, assistantMessageId)).toEqual(CITED)
    const text = s.presenters.sessions.messages
      .require(assistantMessageId)
      .blocks.find((b) => b.kind === 'content')
    expect(text?.text).toBe(SEARCH.type === 'web_search' ? SEARCH.text : '')
  })

  it("OpenAI: the agent's own tools still run on the Responses API (a glob, then the searched answer)", async () => {
    const globThenSearch: FakeScript = (_request, index) =>
      index === 0
        ? {
            steps: [
              { type: 'tool_calls', calls: [{ id: 'r1', name: 'glob', argumentChunks: ['{"pattern":"*"}'] }] }
            ]
          }
        : { steps: [SEARCH] }
    const s = await setup('openai', { id: 'openai', kind: 'openai', model: 'gpt-4.1' }, globThenSearch)
    const { assistantMessageId } = await s.send('provider')
    const [first, second] = s.llm.generationRequests()
    expect(first.path).toBe('/v1/responses')
    expect(second.path).toBe('/v1/responses')
    // The tool's result goes back as a Responses function_call_output, beside the search tool.
    expect(body(second).input).toContainEqual(
      expect.objectContaining({ type: 'function_call_output', call_id: 'r1' })
    )
    expect(body(second).tools).toContainEqual(expect.objectContaining({ type: 'web_search' }))
    const message = s.presenters.sessions.messages.require(assistantMessageId)
    expect(message.blocks.find((b) => b.kind === 'tool_call')?.status).toBe('success')
    expect(sourcesOf(s, assistantMessageId)).toEqual(CITED)
  })

  it('Gemini: google_search grounding; groundingMetadata chunks become the sources block', async () => {
    const s = await setup('gemini', { id: 'gemini', kind: 'gemini', model: 'gemini-2.5-flash' })
    const { assistantMessageId } = await s.send('provider')
    const [request] = s.llm.generationRequests()
    expect(body(request).tools).toContainEqual({ googleSearch: {} })
    expect(functionToolNames(request)).not.toContain('web_search')
    expect(sourcesOf(s, assistantMessageId)).toEqual(CITED)
  })

  it('Anthropic: the web_search_20250305 server tool; its results become the sources block and its call is not run by the app', async () => {
    const s = await setup('anthropic', { id: 'anthropic', kind: 'anthropic', model: 'claude-sonnet-4-5' })
    const { assistantMessageId } = await s.send('provider')
    const requests = s.llm.generationRequests()
    expect(requests).toHaveLength(1) // the server tool's call needs no round of ours
    expect(body(requests[0]).tools).toContainEqual(
      expect.objectContaining({ type: 'web_search_20250305', name: 'web_search', max_uses: 5 })
    )
    expect(functionToolNames(requests[0])).not.toContain('web_search')
    expect(functionToolNames(requests[0])).toContain('read')
    const message = s.presenters.sessions.messages.require(assistantMessageId)
    expect(message.blocks.filter((b) => b.kind === 'tool_call')).toEqual([])
    expect(sourcesOf(s, assistantMessageId)).toEqual(CITED)
  })

  it("OpenRouter: the model's :online variant; url_citation annotations become the sources block", async () => {
    const s = await setup('openai', { id: 'openrouter', kind: 'openai-compatible', model: 'openai/gpt-4.1' })
    const { assistantMessageId } = await s.send('provider')
    const [request] = s.llm.generationRequests()
    expect(request.path).toBe('/v1/chat/completions')
    expect(body(request).model).toBe('openai/gpt-4.1:online')
    expect(functionToolNames(request)).not.toContain('web_search')
    expect(sourcesOf(s, assistantMessageId)).toEqual(CITED)
  })

  it("a model without its provider's search keeps the app's web_search (chat completions, no provider tool)", async () => {
    const s = await setup('openai', { id: 'openai', kind: 'openai', model: 'gpt-3.5-turbo' }, [
      { type: 'text', text: 'No idea.' }
    ])
    await s.send('provider')
    const [request] = s.llm.generationRequests()
    expect(request.path).toBe('/v1/chat/completions')
    expect(functionToolNames(request)).toContain('web_search')
    expect(JSON.stringify(body(request).tools)).not.toContain('"type":"web_search"')
  })

  it('off: neither search is offered; app: only the app’s web_search', async () => {
    const s = await setup('openai', { id: 'openai', kind: 'openai', model: 'gpt-4.1' }, [
      { type: 'text', text: 'Fine.' }
    ])
    await s.send('off')
    await s.send('app')
    const [off, app] = s.llm.generationRequests()
    expect(off.path).toBe('/v1/chat/completions')
    expect(functionToolNames(off)).not.toContain('web_search')
    expect(functionToolNames(off)).toContain('read')
    expect(app.path).toBe('/v1/chat/completions')
    expect(functionToolNames(app)).toContain('web_search')
  })

  it("a chat that chose nothing follows Settings › Web search's choice", async () => {
    const s = await setup('anthropic', { id: 'anthropic', kind: 'anthropic', model: 'claude-sonnet-4-5' })
    await createRouter(s.presenters).call(webSearchUpdateSettings, { patch: { mode: 'provider' } })
    const { assistantMessageId } = await s.send()
    const [request] = s.llm.generationRequests()
    expect(body(request).tools).toContainEqual(expect.objectContaining({ type: 'web_search_20250305' }))
    expect(sourcesOf(s, assistantMessageId)).toEqual(CITED)
  })
})
