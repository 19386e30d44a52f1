import { describe, expect, it } from 'vitest'
import { callsReply, textReply, toolCall, toolResults, useLoopHarness } from '../loop/helpers'
import { hostileServerInput } from './hostileServer'
import { type OpenAiRequest } from '../../fixtures/llm/openAiRequest'

const harness = useLoopHarness()
type Loop = Awaited<ReturnType<ReturnType<typeof useLoopHarness>>>

// `pictures` answers with 2,000 one-pixel PNGs and one line of text.
const IMAGE_SERVER = {
  capabilities: { tools: {} },
  body: `
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: [
  { name: 'pictures', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } }
] }))
server.setRequestHandler(types.CallToolRequestSchema, async () => ({ content: [
  { type: 'text', text: 'here they are' },
  ...Array.from({ length: 2000 }, () => ({ type: 'image', data: PNG, mimeType: 'image/png' }))
] }))
`
}

async function withImageServer(h: Loop): Promise<void> {
  await h.presenters.mcp.addServer(hostileServerInput(h.dataDir, 'img', IMAGE_SERVER))
  await h.presenters.mcp.startServer('img')
}

/** Image parts anywhere in an OpenAI chat-completions request body. */
function imagesIn(body: OpenAiRequest): number {
  let count = 0
  for (const message of body.messages)
    if (Array.isArray(message.content)) count += message.content.filter((p) => p.type === 'image_url').length
  return count
}

describe('a server answering with thousands of images', () => {
  it('one result carries 20 images to the model (from its stored block); a note says how many were dropped', async () => {
    const h = await harness([callsReply(toolCall('c1', 'img__pictures', {})), textReply('Seen.')])
    await withImageServer(h)
    const { sessionId } = await h.send('show me', { permissionMode: 'full_access' })
    await h.idle(sessionId)
    const second = h.bodies()[1]
    expect(imagesIn(second)).toBe(20)
    const [result] = toolResults(second)
    expect(result.content).toContain('here they are')
    expect(result.content).toContain(
      '[1980 more images from this result were dropped: a tool result carries at most 20]'
    )
  })

  it('a request is trimmed to the provider’s image limit, keeping the newest images', async () => {
    // openai-compatible back ends get the default cap of 20 images a request; three results carry 60.
    const h = await harness(
      [
        callsReply(toolCall('c1', 'img__pictures', { n: 1 }), toolCall('c2', 'img__pictures', { n: 2 })),
        callsReply(toolCall('c3', 'img__pictures', { n: 3 })),
        textReply('Seen.')
      ],
      { providerKind: 'openai-compatible' }
    )
    await withImageServer(h)
    const { sessionId } = await h.send('show me', { permissionMode: 'full_access' })
    await h.idle(sessionId)
    const [, second, third] = h.bodies()
    expect(imagesIn(second)).toBe(20)
    expect(imagesIn(third)).toBe(20)
    const text = JSON.stringify(third.messages)
    expect(text.match(/left out: a request to this provider carries at most 20 images/g)).toHaveLength(40)
    // The newest result (c3) keeps its images; the two older ones gave theirs up.
    const images = third.messages.filter(
      (m) => m.role === 'user' && Array.isArray(m.content) && m.content.some((p) => p.type === 'image_url')
    )
    expect(images).toHaveLength(1)
    expect(JSON.stringify(images[0].content)).toContain('c3')
  })
})
