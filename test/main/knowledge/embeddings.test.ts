import { afterEach, describe, expect, it } from 'vitest'
import { embedTexts, type EmbeddingTarget } from '../../../src/main/presenter/knowledgePresenter/embeddings'
import {
  fakeEmbedding,
  startFakeEmbeddings,
  type FakeEmbeddingServer
} from '../../fixtures/llm/fakeEmbeddings'

const servers: FakeEmbeddingServer[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

async function fake(options: Parameters<typeof startFakeEmbeddings>[0] = {}) {
  const server = await startFakeEmbeddings({ apiKey: 'key-123', ...options })
  servers.push(server)
  return server
}

function target(
  kind: EmbeddingTarget['kind'],
  baseUrl: string,
  apiKey: string | undefined = 'key-123'
): EmbeddingTarget {
  return { kind, providerName: `Fake ${kind}`, baseUrl, apiKey, modelId: 'embed-model' }
}

const texts = ['the lighthouse lamp', 'brass keys for volunteers']
const noWait = async () => {}

describe('embeddings over the real wire formats', () => {
  it('OpenAI and OpenAI-compatible: POST /embeddings with a bearer key, vectors in input order', async () => {
    const server = await fake()
    const vectors = await embedTexts(target('openai-compatible', server.baseUrl), texts, { fetch })
    expect(server.requests[0]).toMatchObject({ path: '/v1/embeddings', model: 'embed-model', texts })
    expect(server.requests[0].headers.authorization).toBe('Bearer key-123')
    expect(server.requests[0].body).toMatchObject({ encoding_format: 'float' })
    expect(Array.from(vectors[1])).toEqual(fakeEmbedding(texts[1]).map(Math.fround))
  })

  it('Gemini: batchEmbedContents with x-goog-api-key, one request per batch', async () => {
    const server = await fake()
    const vectors = await embedTexts(target('gemini', server.geminiBaseUrl), texts, { fetch })
    expect(server.requests[0].path).toBe('/v1beta/models/embed-model:batchEmbedContents')
    expect(server.requests[0].headers['x-goog-api-key']).toBe('key-123')
    expect(server.requests[0].body).toMatchObject({
      requests: [
        { model: 'models/embed-model', content: { parts: [{ text: texts[0] }] } },
        { model: 'models/embed-model', content: { parts: [{ text: texts[1] }] } }
      ]
    })
    expect(vectors).toHaveLength(2)
    expect(vectors[0]).toHaveLength(256)
  })

  it('Ollama: POST /api/embed (also when the provider URL ends in /v1)', async () => {
    const server = await fake({ apiKey: undefined })
    await embedTexts({ ...target('ollama', server.ollamaBaseUrl), apiKey: undefined }, texts, { fetch })
    await embedTexts({ ...target('ollama', `${server.ollamaBaseUrl}/v1`), apiKey: undefined }, texts, {
      fetch
    })
    expect(server.requests.map((r) => r.path)).toEqual(['/api/embed', '/api/embed'])
    expect(server.requests[0].headers.authorization).toBeUndefined()
  })

  it('retries 429 after Retry-After and 5xx with back-off, then answers', async () => {
    const server = await fake({
      faults: (_r, i) =>
        i === 0 ? { status: 429, headers: { 'retry-after': '2' } } : i === 1 ? { status: 503 } : undefined
    })
    const waits: number[] = []
    const vectors = await embedTexts(target('openai', server.baseUrl), texts, {
      fetch,
      sleep: async (ms) => void waits.push(ms)
    })
    expect(vectors).toHaveLength(2)
    expect(server.requests).toHaveLength(3)
    expect(waits).toEqual([2000, 1000])
  })

  it('gives up on a key the provider refuses, naming the provider and never the key', async () => {
    const server = await fake()
    const error = await embedTexts(target('openai', server.baseUrl, 'sk-wrong-secret'), texts, {
      fetch,
      sleep: noWait
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'embedding_auth', scope: 'run' })
    expect(String((error as Error).message)).toContain(
      'Fake openai (embed-model) refused the API key (HTTP 401)'
    )
    expect(String((error as Error).message)).not.toContain('sk-wrong-secret')
    expect(server.requests).toHaveLength(1)
  })

  it('a 400 for these texts fails the batch only; a provider that keeps rate-limiting stops the run', async () => {
    const refused = await fake({ faults: () => ({ status: 400, message: 'input too long' }) })
    await expect(
      embedTexts(target('openai', refused.baseUrl), texts, { fetch, sleep: noWait })
    ).rejects.toMatchObject({
      code: 'embedding_failed',
      scope: 'batch',
      message: expect.stringContaining('input too long')
    })
    const limited = await fake({ faults: () => ({ status: 429 }) })
    await expect(
      embedTexts(target('openai', limited.baseUrl), texts, { fetch, sleep: noWait })
    ).rejects.toMatchObject({
      code: 'embedding_rate_limited',
      scope: 'run'
    })
    expect(limited.requests).toHaveLength(6)
  })

  it('is abortable mid-request and while waiting to retry', async () => {
    const slow = await fake({ delayMs: 5000 })
    const controller = new AbortController()
    const pending = embedTexts(target('openai', slow.baseUrl), texts, { fetch, signal: controller.signal })
    await slow.requestsSeen(1)
    controller.abort(new Error('stop'))
    await expect(pending).rejects.toThrow('stop')

    const limited = await fake({ faults: () => ({ status: 429, headers: { 'retry-after': '30' } }) })
    const again = new AbortController()
    const waiting = embedTexts(target('openai', limited.baseUrl), texts, { fetch, signal: again.signal })
    await limited.requestsSeen(1)
    again.abort(new Error('stop waiting'))
    await expect(waiting).rejects.toThrow('stop waiting')
  })

  it('refuses an answer with the wrong number of vectors or broken numbers', async () => {
    const server = await fake()
    const bad = { ...target('openai', server.baseUrl) }
    const lying: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      const body = (await response.json()) as { data: unknown[] }
      return new Response(JSON.stringify({ data: body.data.slice(0, 1) }), { status: 200 })
    }
    await expect(embedTexts(bad, texts, { fetch: lying })).rejects.toMatchObject({
      code: 'embedding_bad_response'
    })
    const nan: typeof fetch = async () =>
      new Response(
        JSON.stringify({
          data: [
            { index: 0, embedding: [1, 'x'] },
            { index: 1, embedding: [1, 2] }
          ]
        })
      )
    await expect(embedTexts(bad, texts, { fetch: nan })).rejects.toMatchObject({
      code: 'embedding_bad_response'
    })
  })
})
