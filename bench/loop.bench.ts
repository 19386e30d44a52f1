// The chat loop's own cost, in one run against a local OpenAI-wire server streaming a
// 100,000-token reply:
//  1. whole turn through AgentRuntimePresenter (accumulate, 50 ms deltas through the event hub,
//     every delta batch committed to SQLite before it is sent, tape facts at the end) vs consuming coreStream raw (goal <= 1.3x);
//  2. main-process time the loop spends per token over the last 20,000 tokens vs the first 20,000,
//     every token counted, batch commits included (goal <= 1.2x: the cost per token must not
//     grow with the message); median over runs.
import { registerRawImports } from './rawImports'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { LLMCoreStreamEvent, LLMRequest } from '@shared/types/llm'
import { median, report, timed } from './lib'

registerRawImports()

const { createNodePlatform } = await import('../src/main/platform/nodePlatform')
const { createPresenters } = await import('../src/main/presenter/index')
const { AgentRuntimePresenter } = await import('../src/main/presenter/agentRuntimePresenter/index')
const { modelLimitsFrom } = await import('../src/main/presenter/agentRuntimePresenter/modelLimits')

// The fake server belongs to the test program; it is loaded by path (see provider-stream.bench.ts).
interface FakeLlmFixture {
  startFakeLlm(options: {
    kind: 'openai'
    script: () => { steps: unknown[] }
  }): Promise<{ baseUrl: string; close(): Promise<void> }>
  manyTokens(count: number, token?: string): unknown
}
const FIXTURE = '../test/fixtures/llm/fakeLlm.ts'

const TOKENS = 100_000
const RUNS = 11
// A fifth of the reply: wide enough that each window holds several delta batch commits and
// garbage collections (a window of 4,000 tokens was ~2 ms of loop time, so one scavenge landing
// in it could double the ratio).
const WINDOW = 20_000

async function main(): Promise<void> {
  const { startFakeLlm, manyTokens } = (await import(FIXTURE)) as FakeLlmFixture
  const steps: unknown[] = [
    manyTokens(TOKENS, 'tok '),
    { type: 'usage', promptTokens: 10, completionTokens: TOKENS }
  ]
  const server = await startFakeLlm({ kind: 'openai', script: () => ({ steps }) })
  const dataDir = mkdtempSync(join(tmpdir(), 'deepchat-bench-loop-'))
  const presenters = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
  await presenters.llmProviders.addProvider({
    id: 'bench',
    kind: 'openai',
    name: 'Bench',
    baseUrl: server.baseUrl,
    apiKey: 'sk-bench-000000000000',
    models: [{ id: 'bench-model', name: 'Bench', contextLength: 1_000_000, maxOutputTokens: 32_000 }]
  })
  // A renderer is listening: every delta is validated and handed to a transport.
  let deltaEvents = 0
  presenters.events.subscribe((name) => {
    if (name === 'chat.stream.delta') deltaEvents++
  })

  // Per-token cost: the time between handing an event to the loop and the loop asking for
  // the next one is the loop's own work on that event.
  let costs: Array<{ token: number; ms: number; tokens: number }> = []
  // Part 1 uses the production path unchanged; part 2 hands the loop one event per token.
  let perTokenEvents = false
  const coreStream = (request: LLMRequest, signal: AbortSignal) => {
    const source = presenters.llmProviders.coreStream(request, signal)
    return perTokenEvents ? measured(source, costs) : source
  }
  const runtime = new AgentRuntimePresenter({
    sqlite: presenters.sqlite,
    sessions: presenters.sessions,
    tape: presenters.tape,
    llm: { coreStream, getDefaultModel: () => null, modelLimits: modelLimitsFrom(presenters.llmProviders) },
    tools: presenters.tools,
    permissions: presenters.permissions,
    events: presenters.events,
    workspaces: { forNewChat: () => null, ensure: (path) => presenters.workspaces.ensure(path) }
  })

  async function wholeTurn(): Promise<void> {
    const accepted = await runtime.sendMessage({
      text: 'Write a lot.',
      newSession: { providerId: 'bench', modelId: 'bench-model' }
    })
    await runtime.idle(accepted.sessionId)
    const message = presenters.sessions.messages.require(accepted.assistantMessageId!)
    const text = message.blocks.find((b) => b.kind === 'content')?.text ?? ''
    if (message.status !== 'sent' || text.length !== TOKENS * 4)
      throw new Error(`turn failed: ${message.status}, ${text.length} chars`)
  }

  async function rawStream(): Promise<void> {
    let chars = 0
    const request: LLMRequest = {
      providerId: 'bench',
      modelId: 'bench-model',
      messages: [{ role: 'user', content: 'Write a lot.' }]
    }
    for await (const event of presenters.llmProviders.coreStream(request, new AbortController().signal)) {
      if (event.type === 'text') chars += event.content.length
    }
    if (chars !== TOKENS * 4) throw new Error(`raw stream got ${chars} chars`)
  }

  for (let i = 0; i < 2; i++) {
    await rawStream()
    await wholeTurn()
  }
  const baseline: number[] = []
  const loop: number[] = []
  const early: number[] = []
  const late: number[] = []
  // Each delta batch is one SQLite commit (the stream journal) before it is sent.
  let timedCommits = 0
  for (let i = 0; i < RUNS; i++) {
    // Who goes first alternates, so neither always runs on the other's garbage.
    if (i % 2 === 0) baseline.push(await timed(rawStream))
    const before = deltaEvents
    loop.push(await timed(wholeTurn))
    timedCommits += deltaEvents - before
    if (i % 2 === 1) baseline.push(await timed(rawStream))
  }
  const loopSeconds = loop.reduce((sum, ms) => sum + ms, 0) / 1000
  perTokenEvents = true
  await wholeTurn()
  for (let i = 0; i < RUNS; i++) {
    costs = []
    await wholeTurn()
    early.push(perToken(costs, WINDOW / 2))
    late.push(perToken(costs, TOKENS - WINDOW / 2))
  }
  for (const list of [baseline, loop, early, late]) list.sort((a, b) => a - b)
  console.log(`raw coreStream, ${TOKENS} tokens:            median ${median(baseline).toFixed(1)} ms`)
  console.log(
    `whole loop turn, ${TOKENS} tokens:           median ${median(loop).toFixed(1)} ms (${deltaEvents} delta events in ${2 * RUNS + 3} turns)`
  )
  console.log(
    `SQLite delta commits while streaming:      ${(timedCommits / loopSeconds).toFixed(1)} per second (${(timedCommits / RUNS).toFixed(1)} per turn)`
  )
  console.log(
    `loop time per token, first ${WINDOW.toLocaleString('en')} tokens:      median ${(median(early) * 1000).toFixed(2)} µs`
  )
  console.log(
    `loop time per token, last ${WINDOW.toLocaleString('en')} tokens:      median ${(median(late) * 1000).toFixed(2)} µs`
  )
  const a = report('loop turn / raw coreStream', median(loop) / median(baseline), 'x', { max: 1.3 })
  const b = report(
    `per-token cost, last ${WINDOW.toLocaleString('en')} / first ${WINDOW.toLocaleString('en')}`,
    median(late) / median(early),
    'x',
    {
      max: 1.2
    }
  )
  await presenters.dispose()
  await server.close()
  rmSync(dataDir, { recursive: true, force: true })
  process.exitCode = a && b ? 0 : 1
}

/**
 * Hands the loop one event per token (the provider's SSE coalescing merges a fast local stream
 * into a few large events, which would hide any per-token cost) and records how long the loop
 * works on each before asking for the next.
 */
async function* measured(
  source: AsyncIterable<LLMCoreStreamEvent>,
  costs: Array<{ token: number; ms: number; tokens: number }>
): AsyncGenerator<LLMCoreStreamEvent> {
  let token = 0
  for await (const event of source) {
    const pieces = event.type === 'text' ? event.content.match(/[^ ]* ?/g)!.filter(Boolean) : [null]
    for (const piece of pieces) {
      const start = performance.now()
      yield piece === null ? event : { type: 'text', content: piece }
      if (piece !== null) costs.push({ token: token++, ms: performance.now() - start, tokens: 1 })
    }
  }
}

/**
 * Loop milliseconds per token over the window of tokens centred on `at`: every token counts,
 * the slowest too (they are the ones that close a delta batch and commit it to SQLite). Noise
 * from a shared machine (a preemption, a GC pause) is handled by taking the median over runs.
 */
function perToken(costs: Array<{ token: number; ms: number; tokens: number }>, at: number): number {
  const window = costs.filter((c) => c.token >= at - WINDOW / 2 && c.token < at + WINDOW / 2)
  if (window.length === 0) return NaN
  return window.reduce((sum, c) => sum + c.ms, 0) / window.reduce((sum, c) => sum + c.tokens, 0)
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
