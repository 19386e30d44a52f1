import { afterEach, describe, expect, it } from 'vitest'
import { webSearchUpdateSettings } from '@shared/contracts/routes/webSearch.routes'
import { createRouter } from '../../../src/main/routes'
import { webSourcesOf } from '../../../src/renderer/src/components/chat/lib/webSources'
import { callsReply, textReply, toolCall, toolResults, useLoopHarness } from '../loop/helpers'
import { FAKE_KEY, startFakeSearch, type FakeSearch } from '../../fixtures/web/fakeSearch'

const harness = useLoopHarness()
let engine: FakeSearch | undefined
afterEach(async () => {
  await engine?.close()
  engine = undefined
})

describe('web_search in a turn', () => {
  it('the model searches, the engine answers, the model reads numbered sources and the call keeps them for the sources block', async () => {
    engine = await startFakeSearch('tavily', [
      {
        title: 'Kyoto autumn leaves',
        url: 'https://kyoto.example/autumn',
        snippet: 'Best in late November.'
      },
      { title: 'Maple forecast', url: 'https://forecast.example/maple', snippet: 'Peak on Nov 25.' }
    ])
    const h = await harness([
      callsReply(toolCall('s1', 'web_search', { query: 'kyoto autumn leaves peak' })),
      textReply('Late November [1], peaking around Nov 25 [2].')
    ])
    await createRouter(h.presenters).call(webSearchUpdateSettings, {
      patch: { engine: 'tavily', endpoints: { tavily: engine.baseUrl }, keys: { tavily: FAKE_KEY } }
    })
    const { sessionId, assistantMessageId } = await h.send('when do the leaves turn in Kyoto?')
    await h.idle(sessionId)

    expect(engine.requests[0].body).toMatchObject({ query: 'kyoto autumn leaves peak' })
    const [result] = toolResults(h.bodies()[1])
    expect(result.content).toContain('[1] Kyoto autumn leaves — kyoto.example')
    expect(result.content).toContain('[2] Maple forecast — forecast.example')
    expect(result.content).toMatch(/untrusted web content/)

    const message = h.presenters.sessions.messages.require(assistantMessageId)
    expect(message.status).toBe('sent')
    const call = message.blocks.find((b) => b.kind === 'tool_call')
    expect(call?.status).toBe('success')
    // What the chat's sources block reads from the stored call.
    expect(webSourcesOf(call?.toolCall?.response)).toEqual([
      { index: 1, title: 'Kyoto autumn leaves', site: 'kyoto.example', url: 'https://kyoto.example/autumn' },
      { index: 2, title: 'Maple forecast', site: 'forecast.example', url: 'https://forecast.example/maple' }
    ])
  })
})
