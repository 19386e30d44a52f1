// Streams a scripted 20,000-token reply from a local OpenAI-wire server two ways in the same
// run: through LlmProviderPresenter.coreStream (AI SDK + event mapping) and through a plain
// fetch + SSE parse of the same bytes. Prints both medians and their ratio (goal <= 1.5x).
import type { z } from 'zod'
import { LlmProviderPresenter } from '../src/main/presenter/llmProviderPresenter'
import type { ProviderConfigPort } from '../src/main/presenter/llmProviderPresenter/providerStore'
import { median, report, timed } from './lib'

// The fake server belongs to the test program (tsconfig.test.json), which this bench's
// program does not include; it is loaded by path and typed by the little it is used for.
interface FakeLlmFixture {
  startFakeLlm(options: {
    kind: 'openai'
    script: () => { steps: unknown[] }
  }): Promise<{ baseUrl: string; close(): Promise<void> }>
  manyTokens(count: number, token?: string): unknown
}
const FIXTURE = '../test/fixtures/llm/fakeLlm.ts'

const TOKENS = 20_000
const RUNS = 31

/** In-memory config: the bench measures streaming, not SQLite. */
function memoryConfig(): ProviderConfigPort {
  const docs = new Map<string, unknown>()
  const secrets = new Map<string, string>()
  return {
    getDocument: <S extends z.ZodType>(key: string, schema: S, fallback: z.output<S>) =>
      docs.has(key) ? schema.parse(docs.get(key)) : fallback,
    setDocument: <S extends z.ZodType>(key: string, schema: S, value: z.input<S>) => {
      const parsed = schema.parse(value)
      docs.set(key, parsed)
      return parsed
    },
    getSecret: async (key) => secrets.get(key),
    setSecret: async (key, value) => void secrets.set(key, value),
    deleteSecret: async (key) => void secrets.delete(key)
  }
}

async function main(): Promise<void> {
  // The same steps array every time: the server renders the 20,000-token body once.
  const { startFakeLlm, manyTokens } = (await import(FIXTURE)) as FakeLlmFixture
  const steps: unknown[] = [
    manyTokens(TOKENS, 'tok '),
    { type: 'usage', promptTokens: 10, completionTokens: TOKENS }
  ]
  const server = await startFakeLlm({ kind: 'openai', script: () => ({ steps }) })
  const providers = new LlmProviderPresenter({ config: memoryConfig(), events: { emit: () => {} } })
  await providers.addProvider({
    id: 'bench',
    kind: 'openai',
    name: 'Bench',
    baseUrl: server.baseUrl,
    apiKey: 'sk-bench-000000000000'
  })
  const messages = [{ role: 'user' as const, content: 'Write a lot.' }]

  async function viaCoreStream(): Promise<number> {
    let chars = 0
    for await (const event of providers.coreStream(
      { providerId: 'bench', modelId: 'gpt-4o', messages },
      new AbortController().signal
    )) {
      if (event.type === 'text') chars += event.content.length
      if (event.type === 'error') throw new Error(`coreStream failed: ${event.error_message}`)
    }
    return chars
  }

  async function viaFetch(): Promise<number> {
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-000000000000' },
      body: JSON.stringify({
        model: 'gpt-4o',
        messages,
        stream: true,
        stream_options: { include_usage: true }
      })
    })
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ''
    let chars = 0
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      buffer += value
      let end: number
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const frame = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        if (!frame.startsWith('data: ') || frame === 'data: [DONE]') continue
        const chunk = JSON.parse(frame.slice(6)) as { choices: Array<{ delta?: { content?: string } }> }
        chars += chunk.choices[0]?.delta?.content?.length ?? 0
      }
    }
    return chars
  }

  const [a, b] = [await viaCoreStream(), await viaFetch()]
  if (a !== b || a !== TOKENS * 4) throw new Error(`paths disagree: coreStream ${a} chars, fetch ${b} chars`)

  // Interleaved so both paths see the same machine load (other work shares these cores).
  for (let i = 0; i < 3; i++) {
    await viaFetch()
    await viaCoreStream()
  }
  const baseline: number[] = []
  const measured: number[] = []
  const pairRatios: number[] = []
  for (let i = 0; i < RUNS; i++) {
    // Alternate which path goes first so neither always runs right after the other's garbage.
    const [first, second] = i % 2 === 0 ? [viaFetch, viaCoreStream] : [viaCoreStream, viaFetch]
    const a = await timed(first)
    const b = await timed(second)
    const [fetchMs, coreMs] = first === viaFetch ? [a, b] : [b, a]
    baseline.push(fetchMs)
    measured.push(coreMs)
    pairRatios.push(coreMs / fetchMs)
  }
  const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y)
  const baselineMs = median(sorted(baseline))
  const measuredMs = median(sorted(measured))
  console.log(`fetch + SSE parse, ${TOKENS} tokens: median ${baselineMs.toFixed(1)} ms`)
  console.log(`coreStream,        ${TOKENS} tokens: median ${measuredMs.toFixed(1)} ms`)
  console.log(`ratio of medians: ${(measuredMs / baselineMs).toFixed(2)}x`)
  // The headline is the median of back-to-back pair ratios: both runs of a pair see the same
  // machine load, which matters on a shared 2-core box.
  const pass = report('provider-stream coreStream / fetch+SSE (paired)', median(sorted(pairRatios)), 'x', {
    max: 1.5
  })
  await server.close()
  process.exitCode = pass ? 0 : 1
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
