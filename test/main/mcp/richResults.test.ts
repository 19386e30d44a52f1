import { describe, expect, it } from 'vitest'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CANCELLED_RESULT } from '../../../src/main/presenter/agentRuntimePresenter/conversation'
import { callsReply, call, textReply, toolCall, toolResults, useLoopHarness } from '../loop/helpers'
import { TEST_SERVER } from './harness'
import { until } from '../../helpers/until'
import { chatStop } from '@shared/contracts/routes/chat.routes'
import { type OpenAiRequest } from '../../fixtures/llm/openAiRequest'

const harness = useLoopHarness()
type Loop = Awaited<ReturnType<ReturnType<typeof useLoopHarness>>>

const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

async function withTestServer(h: Loop, env: Record<string, string> = {}): Promise<void> {
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

/** Roles of an OpenAI request body's messages, in order. */
function roles(body: OpenAiRequest): string[] {
  return body.messages.map((m) => m.role)
}

describe('rich MCP results reach the model', () => {
  it('sends an image result to the model and keeps every item on the call block', async () => {
    const h = await harness([
      callsReply(toolCall('m1', 't__media', {})),
      textReply('I see a pixel.'),
      textReply('Still a pixel.')
    ])
    await withTestServer(h)
    const { sessionId, assistantMessageId } = await h.send('show me', { permissionMode: 'full_access' })
    await h.idle(sessionId)

    const second = h.bodies()[1]
    const [result] = toolResults(second)
    expect(result.tool_call_id).toBe('m1')
    // Embedded resource and link as text; audio named, not sent.
    expect(result.content).toContain('here')
    expect(result.content).toContain('embedded text')
    expect(result.content).toContain('[link doc 2 test://doc/2 (text/plain)]')
    expect(result.content).toMatch(/\[audio audio\/wav, \d+ bytes/)
    // Chat completions takes no image in a tool message: it follows in a user message.
    const after = second.messages.slice(second.messages.findIndex((m) => m.role === 'tool'))
    const imageUser = after.find((m) => m.role === 'user' && Array.isArray(m.content))
    const urls = (Array.isArray(imageUser?.content) ? imageUser.content : [])
      .filter((p) => p.type === 'image_url')
      .map((p) => p.image_url?.url)
    expect(urls).toEqual([`data:image/png;base64,${TINY_PNG}`])

    const block = h.presenters.sessions.messages
      .require(assistantMessageId)
      .blocks.find((b) => b.kind === 'tool_call')!
    expect(block.kind === 'tool_call' && block.data?.items?.map((i) => i.type)).toEqual([
      'image',
      'audio',
      'resource',
      'resource_link'
    ])

    // The next turn sends the image again, from the stored block.
    await h.send('and now?', { sessionId })
    await h.idle(sessionId)
    expect(JSON.stringify(h.bodies()[2].messages)).toContain(`data:image/png;base64,${TINY_PNG}`)
  }, 30_000)

  it('keeps a cancelled call in the next request, answered as cancelled', async () => {
    const h = await harness([callsReply(toolCall('m1', 't__wait_for_cancel', {})), textReply('Understood.')])
    const marker = join(h.dataDir, 'cancelled.txt')
    await withTestServer(h, { CANCEL_MARKER: marker })
    const { sessionId } = await h.send('wait', { permissionMode: 'full_access' })
    await until(() => existsSync(marker) && readFileSync(marker, 'utf8') === 'waiting', { timeoutMs: 15_000 })
    await call(h, chatStop, { sessionId })
    await h.idle(sessionId)

    await h.send('never mind', { sessionId })
    await h.idle(sessionId)
    const next = h.bodies()[1]
    expect(roles(next).filter((r) => r !== 'system')).toEqual(['user', 'assistant', 'tool', 'user'])
    const assistant = next.messages.find((m) => m.role === 'assistant')
    expect(assistant?.tool_calls?.map((c) => [c.id, c.function.name])).toEqual([['m1', 't__wait_for_cancel']])
    expect(toolResults(next)).toEqual([{ tool_call_id: 'm1', content: CANCELLED_RESULT }])
  }, 30_000)

  it('passes structuredContent to the model as JSON text when the server gives no text', async () => {
    const h = await harness([callsReply(toolCall('s1', 't__structured', {})), textReply('42 it is.')])
    await withTestServer(h)
    const { sessionId } = await h.send('total?', { permissionMode: 'full_access' })
    await h.idle(sessionId)
    expect(toolResults(h.bodies()[1])).toEqual([{ tool_call_id: 's1', content: '{"total":42}' }])
  }, 30_000)
})
