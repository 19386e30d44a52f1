import { existsSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { createFeatureHarness, type FeatureHarness } from './featureHarness'
import { ONE_PIXEL_PNG, startFakeImageApi, type FakeImageApi } from '../../fixtures/llm/fakeImages'
import {
  IMAGE_GENERATION_KEY,
  ImageGenerationSetting
} from '../../../src/main/presenter/agentRuntimePresenter/featurePorts'

let h: FeatureHarness | undefined
let api: FakeImageApi | undefined
afterEach(async () => {
  await h?.close()
  await api?.close()
  h = api = undefined
})

async function setup(
  kind: 'openai' | 'gemini',
  modelId: string,
  options: Parameters<typeof startFakeImageApi>[0] = {}
) {
  api = await startFakeImageApi(options)
  h = createFeatureHarness()
  await h.presenters.llmProviders.addProvider({
    id: 'img',
    kind,
    name: 'Images',
    baseUrl: kind === 'openai' ? api.openAiBaseUrl : api.geminiBaseUrl,
    apiKey: 'sk-test-0123456789abcd',
    models: [{ id: modelId, name: modelId }]
  })
  h.presenters.config.setDocument(IMAGE_GENERATION_KEY, ImageGenerationSetting, {
    model: { providerId: 'img', modelId }
  })
  return { h, api }
}

describe('image_generate', () => {
  it('OpenAI images API: returns an image item and saves the file in the session folder', async () => {
    const { h, api } = await setup('openai', 'gpt-image-1')
    const result = await h.call('image_generate', {
      prompt: 'a red fox in snow',
      size: '1024x1024',
      quality: 'high',
      outputFormat: 'png'
    })
    expect(result.rawData.isError).toBe(false)
    const image = result.content.find((c) => c.type === 'image')
    expect(image).toMatchObject({
      type: 'image',
      mimeType: 'image/png',
      data: ONE_PIXEL_PNG.toString('base64')
    })
    const data = result.rawData.toolResult.data as { images: { path: string }[]; model: string }
    expect(data.model).toBe('img/gpt-image-1')
    expect(data.images[0].path.startsWith(h.presenters.tools.sessionDataDir(h.sessionId))).toBe(true)
    expect(readFileSync(data.images[0].path).equals(ONE_PIXEL_PNG)).toBe(true)
    expect(api.requests[0].path).toBe('/v1/images/generations')
    expect(api.requests[0].body).toMatchObject({
      model: 'gpt-image-1',
      prompt: 'a red fox in snow',
      size: '1024x1024',
      quality: 'high',
      output_format: 'png'
    })
  })

  it('Gemini image model: generateContent with an image part', async () => {
    const { h, api } = await setup('gemini', 'gemini-2.5-flash-image')
    const result = await h.call('image_generate', { prompt: 'a lighthouse at dusk', size: '1536x1024' })
    expect(result.rawData.isError).toBe(false)
    expect(api.requests[0].path).toBe('/v1beta/models/gemini-2.5-flash-image:generateContent')
    expect(JSON.stringify(api.requests[0].body)).toContain('a lighthouse at dusk')
    const data = result.rawData.toolResult.data as { images: { path: string }[] }
    expect(existsSync(data.images[0].path)).toBe(true)
  })

  it('is not offered without an image model', async () => {
    h = createFeatureHarness()
    expect(await h.toolNames()).not.toContain('image_generate')
    expect((await h.call('image_generate', { prompt: 'x' })).rawData.toolResult.error?.code).toBe(
      'unknown_tool'
    )
  })

  it('provider errors and refusals come back as tool errors; no file is left behind', async () => {
    const failing = await setup('openai', 'gpt-image-1', {
      failWith: { status: 400, message: 'Your prompt was rejected by the safety system' }
    })
    const result = await failing.h.call('image_generate', { prompt: 'something' })
    expect(result.rawData.isError).toBe(true)
    expect(result.rawData.toolResult.error?.code).toBe('image_generation_failed')
    expect(failing.h.text(result)).toContain('safety system')
    expect(existsSync(`${failing.h.presenters.tools.sessionDataDir(failing.h.sessionId)}/images`)).toBe(false)
    await failing.h.close()
    await failing.api.close()

    const refusing = await setup('gemini', 'gemini-2.5-flash-image', {
      geminiTextOnly: 'I cannot draw that.'
    })
    const refused = await refusing.h.call('image_generate', { prompt: 'something' })
    expect(refused.rawData.isError).toBe(true)
  })

  it('rejects bad arguments before calling the provider', async () => {
    const { h, api } = await setup('openai', 'gpt-image-1')
    for (const args of [
      { prompt: '' },
      { prompt: 'x'.repeat(8001) },
      { prompt: 'x', size: 'big' },
      { prompt: 'x', size: '99999x1' },
      { prompt: 'x', quality: 'ultra' },
      { prompt: 'x', n: 3 }
    ]) {
      const result = await h.call('image_generate', args)
      expect(result.rawData.toolResult.error?.code, JSON.stringify(args).slice(0, 60)).toBe(
        'invalid_arguments'
      )
    }
    expect(api.requests).toHaveLength(0)
  })
})
