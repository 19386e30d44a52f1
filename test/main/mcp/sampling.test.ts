import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { mcpSamplingRequested } from '@shared/contracts/events/mcp.events'
import type { McpSamplingRequest } from '@shared/types/mcp'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { startFakeLlm, type FakeLlm } from '../../fixtures/llm/fakeLlm'
import { testServerInput } from './harness'
import { until } from '../../helpers/until'

let presenters: Presenters | undefined
let llm: FakeLlm | undefined
let dir: string | undefined
afterEach(async () => {
  await presenters?.dispose()
  await llm?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
  presenters = undefined
  llm = undefined
})

describe('sampling through the app’s model providers', () => {
  it('an approved sampling request runs on the chosen provider and model', async () => {
    llm = await startFakeLlm({ kind: 'openai', script: [{ steps: [{ type: 'text', text: ['Four', '.'] }] }] })
    dir = mkdtempSync(join(tmpdir(), 'mcp-sampling-'))
    presenters = createPresenters(createNodePlatform({ dataDir: dir, log: () => {} }), { log: () => {} })
    const seen: McpSamplingRequest[] = []
    presenters.events.subscribe((name, payload) => {
      if (name === mcpSamplingRequested.name) seen.push((payload as { request: McpSamplingRequest }).request)
    })
    await presenters.llmProviders.addProvider({
      id: 'fake',
      kind: 'openai',
      name: 'Fake',
      baseUrl: llm.baseUrl,
      apiKey: 'sk-test-0123456789abcd',
      models: [{ id: 'fake-model', name: 'Fake model' }]
    })
    await presenters.mcp.addServer({ ...testServerInput('t'), enabled: false })
    await presenters.mcp.startServer('t')

    const call = presenters.mcp.callTool('t', 'sample', { prompt: 'what is 2+2' })
    await until(() => seen.length > 0, { what: 'the server asks for a sample', timeoutMs: 5_000 })
    presenters.mcp.answerSampling(seen[0].requestId, {
      approved: true,
      providerId: 'fake',
      modelId: 'fake-model'
    })
    const result = JSON.parse((await call).content.map((c) => (c.type === 'text' ? c.text : '')).join(''))
    expect(result).toMatchObject({
      role: 'assistant',
      model: 'fake/fake-model',
      content: { type: 'text', text: 'Four.' }
    })

    const body = llm.generationRequests()[0].body as {
      messages: { role: string; content: unknown }[]
      max_tokens?: number
      max_completion_tokens?: number
    }
    expect(body.messages[0]).toMatchObject({ role: 'system', content: 'be brief' })
    expect(JSON.stringify(body.messages[1])).toContain('what is 2+2')
  })
})
