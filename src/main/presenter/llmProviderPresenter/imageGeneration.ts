import { generateImage, type ImageModel } from 'ai'
import { createOpenAI } from '@ai-sdk/openai'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { AppError } from '@shared/errors'
import type { StoredProvider } from '@shared/types/provider'
import { classifyError } from './errors'

export interface ImageGenerationRequest {
  providerId: string
  modelId: string
  prompt: string
  /** `WxH`, e.g. 1024x1024. */
  size?: string
  quality?: 'low' | 'medium' | 'high' | 'auto'
  outputFormat?: 'png' | 'jpeg' | 'webp'
  background?: 'auto' | 'opaque'
}

export interface GeneratedImageData {
  mimeType: string
  base64: string
}

/** OpenAI speaks the images API; Gemini image (and Imagen) models go through Google's API. */
export function createImageModel(
  provider: StoredProvider,
  modelId: string,
  apiKey: string | undefined,
  fetch?: typeof globalThis.fetch
): ImageModel {
  const baseURL = provider.baseUrl.replace(/\/+$/, '')
  const key = apiKey || 'not-needed'
  switch (provider.kind) {
    case 'openai':
    case 'openai-compatible':
      return createOpenAI({ baseURL, apiKey: key, fetch }).image(modelId)
    case 'gemini':
      return createGoogleGenerativeAI({ baseURL, apiKey: key, fetch }).image(modelId)
    default:
      throw new AppError(
        'image_model_unavailable',
        `${provider.name} (${provider.kind}) cannot generate images; use an OpenAI or Gemini provider`
      )
  }
}

/** One image for a prompt. Provider failures become AppErrors with the provider's classification. */
export async function generateImages(
  provider: StoredProvider,
  apiKey: string | undefined,
  request: ImageGenerationRequest,
  signal?: AbortSignal,
  fetch?: typeof globalThis.fetch
): Promise<GeneratedImageData[]> {
  const model = createImageModel(provider, request.modelId, apiKey, fetch)
  const isGemini = provider.kind === 'gemini'
  try {
    const result = await generateImage({
      model,
      prompt: request.prompt,
      n: 1,
      // Gemini image models take an aspect ratio, not a size.
      ...(request.size && !isGemini ? { size: request.size as `${number}x${number}` } : {}),
      ...(request.size && isGemini ? { aspectRatio: aspectRatioOf(request.size) } : {}),
      providerOptions: isGemini ? undefined : { openai: openAiOptions(request) },
      maxRetries: 0,
      abortSignal: signal
    })
    return result.images.map((image) => ({ mimeType: image.mediaType || 'image/png', base64: image.base64 }))
  } catch (error) {
    if (error instanceof AppError) throw error
    const failure = classifyError(error)
    throw new AppError('image_generation_failed', failure.message)
  }
}

function openAiOptions(request: ImageGenerationRequest): Record<string, string> {
  const options: Record<string, string> = {}
  if (request.quality) options.quality = request.quality
  if (request.outputFormat) options.outputFormat = request.outputFormat
  if (request.background) options.background = request.background
  return options
}

function aspectRatioOf(size: string): `${number}:${number}` {
  const [w, h] = size.split('x').map(Number)
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))
  const d = gcd(w, h) || 1
  return `${w / d}:${h / d}`
}
