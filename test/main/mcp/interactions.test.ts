import { afterEach, describe, expect, it } from 'vitest'
import {
  mcpElicitationRequested,
  mcpInteractionCancelled,
  mcpSamplingRequested
} from '@shared/contracts/events/mcp.events'
import type { McpElicitationRequest, McpSamplingRequest } from '@shared/types/mcp'
import type { SamplingModelRunner } from '../../../src/main/presenter/mcpPresenter/interactionBroker'
import { createHarness, testServerInput, type Harness } from './harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

function textOf(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((c) => c.text ?? '').join('')
}

describe('client capabilities: elicitation, sampling, roots', () => {
  it('elicitation goes to the renderer as an event and returns the accepted form with defaults', async () => {
    h = createHarness()
    await h.mcp.addServer({ ...testServerInput('t'), enabled: false })
    await h.mcp.startServer('t')
    const call = h.mcp.callTool('t', 'ask_user', {})
    const { request } = (await h.waitForEvent(mcpElicitationRequested.name)) as {
      request: McpElicitationRequest
    }
    expect(request).toMatchObject({ serverId: 't', serverName: 't', message: 'Who are you?' })
    expect(request.requestedSchema).toMatchObject({ required: ['name'] })

    // A form answer that breaks the schema is refused and the request stays open.
    expect(() =>
      h!.mcp.answerElicitation(request.requestId, { action: 'accept', content: { color: 'red' } })
    ).toThrow(/Name is required/)
    expect(() =>
      h!.mcp.answerElicitation(request.requestId, { action: 'accept', content: { name: 'Ada', age: -1 } })
    ).toThrow(/at least 0/)

    h.mcp.answerElicitation(request.requestId, { action: 'accept', content: { name: 'Ada' } })
    const result = JSON.parse(textOf(await call))
    expect(result).toEqual({ action: 'accept', content: { name: 'Ada', color: 'blue', age: 30 } })
  })

  it('elicitation decline reaches the server', async () => {
    h = createHarness()
    await h.mcp.addServer({ ...testServerInput('t'), enabled: false })
    await h.mcp.startServer('t')
    const call = h.mcp.callTool('t', 'ask_user', {})
    const { request } = (await h.waitForEvent(mcpElicitationRequested.name)) as {
      request: McpElicitationRequest
    }
    h.mcp.answerElicitation(request.requestId, { action: 'decline' })
    expect(JSON.parse(textOf(await call))).toEqual({ action: 'decline' })
    expect(() => h!.mcp.answerElicitation(request.requestId, { action: 'cancel' })).toThrow(
      /No pending elicitation/
    )
  })

  it('an unanswered elicitation is withdrawn when the call is cancelled', async () => {
    h = createHarness()
    await h.mcp.addServer({ ...testServerInput('t'), enabled: false })
    await h.mcp.startServer('t')
    const controller = new AbortController()
    const call = h.mcp.callTool('t', 'ask_user', {}, { signal: controller.signal })
    const { request } = (await h.waitForEvent(mcpElicitationRequested.name)) as {
      request: McpElicitationRequest
    }
    controller.abort()
    await expect(call).rejects.toMatchObject({ code: 'mcp_cancelled' })
    const cancelled = await h.waitForEvent(mcpInteractionCancelled.name)
    expect(cancelled).toMatchObject({ requestId: request.requestId })
    expect(h.mcp.interactions.pendingRequests()).toEqual([])
  })

  it('sampling asks for approval, runs the chosen model and returns its answer', async () => {
    const runs: Parameters<SamplingModelRunner['createMessage']>[0][] = []
    const runner: SamplingModelRunner = {
      async createMessage(input) {
        runs.push(input)
        return { text: `answer to ${input.messages[0].text}`, model: `${input.providerId}/${input.modelId}` }
      }
    }
    h = createHarness({ sampler: () => runner })
    await h.mcp.addServer({ ...testServerInput('t'), enabled: false })
    await h.mcp.startServer('t')
    const call = h.mcp.callTool('t', 'sample', { prompt: 'what is 2+2' })
    const { request } = (await h.waitForEvent(mcpSamplingRequested.name)) as { request: McpSamplingRequest }
    expect(request).toMatchObject({
      serverId: 't',
      systemPrompt: 'be brief',
      maxTokens: 50,
      messages: [{ role: 'user', text: 'what is 2+2' }],
      modelHints: ['small-model']
    })
    h.mcp.answerSampling(request.requestId, { approved: true, providerId: 'local', modelId: 'm1' })
    const result = JSON.parse(textOf(await call))
    expect(result).toMatchObject({
      role: 'assistant',
      model: 'local/m1',
      content: { type: 'text', text: 'answer to what is 2+2' }
    })
    expect(runs[0]).toMatchObject({
      providerId: 'local',
      modelId: 'm1',
      maxTokens: 50,
      systemPrompt: 'be brief'
    })
  })

  it('a rejected sampling request becomes an error for the server', async () => {
    h = createHarness()
    await h.mcp.addServer({ ...testServerInput('t'), enabled: false })
    await h.mcp.startServer('t')
    const call = h.mcp.callTool('t', 'sample', { prompt: 'x' })
    const { request } = (await h.waitForEvent(mcpSamplingRequested.name)) as { request: McpSamplingRequest }
    h.mcp.answerSampling(request.requestId, { approved: false, reason: 'not now' })
    const result = await call
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain('User rejected the sampling request: not now')
  })

  it('roots come from the session workspace', async () => {
    h = createHarness()
    await h.mcp.addServer({ ...testServerInput('t'), enabled: false })
    await h.mcp.startServer('t')
    h.mcp.setRoots([{ uri: 'file:///work/project', name: 'project' }])
    const result = JSON.parse(textOf(await h.mcp.callTool('t', 'roots', {})))
    expect(result.roots).toEqual([{ uri: 'file:///work/project', name: 'project' }])
  })
})
