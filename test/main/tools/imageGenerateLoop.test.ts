import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { callsReply, textReply, toolCall, toolResults, useLoopHarness } from '../loop/helpers'
import { ONE_PIXEL_PNG, startFakeImageApi, type FakeImageApi } from '../../fixtures/llm/fakeImages'
import {
  IMAGE_GENERATION_KEY,
  ImageGenerationSetting
} from '../../../src/main/presenter/agentRuntimePresenter/featurePorts'

const harness = useLoopHarness()
let api: FakeImageApi | undefined
afterEach(async () => {
  await api?.close()
  api = undefined
})

describe('image_generate in a turn', () => {
  it('the image becomes an image block after the tool block, with the saved file', async () => {
    api = await startFakeImageApi()
    const h = await harness([
      callsReply(toolCall('img1', 'image_generate', { prompt: 'a blue whale' })),
      textReply('Here is your whale.')
    ])
    await h.presenters.llmProviders.addProvider({
      id: 'images',
      kind: 'openai',
      name: 'Images',
      baseUrl: api.openAiBaseUrl,
      apiKey: 'sk-test-0123456789abcd',
      models: [{ id: 'gpt-image-1', name: 'GPT Image' }]
    })
    h.presenters.config.setDocument(IMAGE_GENERATION_KEY, ImageGenerationSetting, {
      model: { providerId: 'images', modelId: 'gpt-image-1' }
    })
    const { sessionId, assistantMessageId } = await h.send('draw a whale')
    await h.idle(sessionId)

    const message = h.presenters.sessions.messages.require(assistantMessageId)
    expect(message.status).toBe('sent')
    const kinds = message.blocks.map((b) => b.kind)
    expect(kinds.indexOf('image')).toBeGreaterThan(kinds.indexOf('tool_call'))
    const image = message.blocks.find((b) => b.kind === 'image')!
    expect(image.data).toMatchObject({ mimeType: 'image/png', toolCallId: 'img1' })
    expect(readFileSync((image.data as { path: string }).path).equals(ONE_PIXEL_PNG)).toBe(true)
    // The model got the text result (with the path), not the raw bytes.
    const [result] = toolResults(h.bodies()[1])
    expect(result.content).toContain('"imageCount": 1')
  })
})
