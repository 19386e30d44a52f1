import { describe, expect, it } from 'vitest'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { callsReply, eventsOf, call, textReply, toolCall, toolResults, useLoopHarness } from './helpers'
import { until } from '../../helpers/until'
import { chatStreamDelta, chatStreamFailed } from '@shared/contracts/events/chat.events'
import { chatRespondToolInteraction, chatStop } from '@shared/contracts/routes/chat.routes'

const harness = useLoopHarness()
const TEST_SERVER = join(import.meta.dirname, '../../fixtures/mcp/testServer.mjs')

async function withTestServer(
  h: Awaited<ReturnType<ReturnType<typeof useLoopHarness>>>,
  env: Record<string, string> = {}
) {
  await h.presenters.mcp.addServer({
    id: 't',
    name: 't',
    type: 'stdio',
    command: process.execPath,
    args: [TEST_SERVER],
    env,
    enabled: false
  })
  await h.presenters.mcp.startServer('t')
}

describe('MCP tools in the loop', () => {
  it('cancels a running MCP call on stop (the server sees notifications/cancelled)', async () => {
    const h = await harness([callsReply(toolCall('m1', 't__wait_for_cancel', {}))])
    const marker = join(h.dataDir, 'cancelled.txt')
    await withTestServer(h, { CANCEL_MARKER: marker })
    const { sessionId, assistantMessageId } = await h.send('wait', { permissionMode: 'full_access' })
    const said = () => (existsSync(marker) ? readFileSync(marker, 'utf8') : '')
    await until(() => said() === 'waiting') // the server runs the call
    await call(h, chatStop, { sessionId })
    expect(h.presenters.sessions.messages.require(assistantMessageId).status).toBe('cancelled')
    await until(() => said().startsWith('cancelled'))
    expect(eventsOf(h, chatStreamFailed)[0]).toMatchObject({ status: 'cancelled' })
  }, 30_000)

  it('asks before an MCP tool runs in default mode, then runs it after allow once', async () => {
    const h = await harness([callsReply(toolCall('m1', 't__echo', { message: 'hi' })), textReply('Echoed.')])
    await withTestServer(h)
    const { sessionId, assistantMessageId } = await h.send('echo hi')
    await h.idle(sessionId)
    const [pending] = h.presenters.sessions.interactions.list({ sessionId, status: 'pending' })
    expect(pending.request).toMatchObject({ actionType: 'permission', request: { type: 'mcp', server: 't' } })
    await call(h, chatRespondToolInteraction, {
      sessionId,
      messageId: assistantMessageId,
      interactionId: pending.id,
      response: { kind: 'permission', decision: 'allow_once' }
    })
    await h.idle(sessionId)
    expect(toolResults(h.bodies()[1])).toEqual([{ tool_call_id: 'm1', content: 'echo: hi' }])
  }, 30_000)

  it('shows MCP progress notifications on the running call block', async () => {
    const h = await harness([
      callsReply(toolCall('m1', 't__progress', { steps: 3 })),
      textReply('Progress done.')
    ])
    await withTestServer(h)
    const { sessionId, assistantMessageId } = await h.send('progress', { permissionMode: 'full_access' })
    await h.idle(sessionId)
    const block = h.presenters.sessions.messages
      .require(assistantMessageId)
      .blocks.find((b) => b.kind === 'tool_call')!
    expect(block).toMatchObject({
      status: 'success',
      data: { progress: 'step 3 · 3/3' },
      toolCall: { response: 'done 3' }
    })
    const progressed = eventsOf(h, chatStreamDelta)
      .flatMap((d) => d.ops)
      .filter((op) => op.op === 'upsert' && op.block.kind === 'tool_call' && op.block.data?.progress)
    expect(progressed.length).toBeGreaterThan(0)
  }, 30_000)
})

describe('dispatch order', () => {
  it('runs read-only calls in parallel and the others one by one, results in model order', async () => {
    const h = await harness([
      callsReply(
        toolCall('r1', 'timing__look', { label: 'r1', ms: 400 }),
        toolCall('r2', 'timing__look', { label: 'r2', ms: 200 }),
        toolCall('r3', 'timing__look', { label: 'r3', ms: 300 }),
        toolCall('w1', 'timing__change', { label: 'w1', ms: 150 }),
        toolCall('w2', 'timing__change', { label: 'w2', ms: 150 })
      ),
      textReply('All five done.')
    ])
    await h.presenters.mcp.addServer({
      id: 'timing',
      name: 'timing',
      type: 'stdio',
      command: process.execPath,
      args: [join(import.meta.dirname, 'fixtures/timingServer.mjs')],
      enabled: false
    })
    await h.presenters.mcp.startServer('timing')
    const { sessionId } = await h.send('go', { permissionMode: 'full_access' })
    await h.idle(sessionId)
    const results = toolResults(h.bodies()[1])
    expect(results.map((r) => r.tool_call_id)).toEqual(['r1', 'r2', 'r3', 'w1', 'w2'])
    const spans = Object.fromEntries(
      results.map((r) => [r.tool_call_id, JSON.parse(r.content) as { start: number; end: number }])
    )
    // The three reads overlap (all start before the first one ends)...
    const firstReadEnd = Math.min(spans.r1.end, spans.r2.end, spans.r3.end)
    expect(Math.max(spans.r1.start, spans.r2.start, spans.r3.start)).toBeLessThan(firstReadEnd)
    // ...the writes wait for them and for each other.
    expect(spans.w1.start).toBeGreaterThanOrEqual(Math.max(spans.r1.end, spans.r2.end, spans.r3.end))
    expect(spans.w2.start).toBeGreaterThanOrEqual(spans.w1.end)
  }, 30_000)
})
