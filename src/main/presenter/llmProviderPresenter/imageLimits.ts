import type { LLMMessage, LLMUserContentPart } from '@shared/types/llm'
import type { ProviderKind } from '@shared/types/provider'

/**
 * Images one request may carry, by wire format (the providers' documented per-request caps);
 * a request over it is refused whole, so the chat would stop. Unknown or local back ends get
 * a modest default.
 */
const MAX_IMAGES: Partial<Record<ProviderKind, number>> = {
  openai: 500,
  azure: 500,
  anthropic: 100,
  bedrock: 20,
  gemini: 3000,
  vertex: 3000,
  mistral: 8,
  groq: 5
}
const DEFAULT_MAX_IMAGES = 20

export function maxImagesPerRequest(kind: ProviderKind): number {
  return MAX_IMAGES[kind] ?? DEFAULT_MAX_IMAGES
}

/**
 * Keeps the newest `limit` images of a request (the ones the model most likely needs now);
 * each older one becomes a short text note in its place, so the history keeps its shape.
 */
export function trimImages(messages: LLMMessage[], limit: number): LLMMessage[] {
  let total = 0
  for (const message of messages) total += imageCount(message)
  if (total <= limit) return messages
  let toDrop = total - limit
  return messages.map((message) => {
    if (toDrop === 0 || imageCount(message) === 0) return message
    const content = (message.content as LLMUserContentPart[]).map((part): LLMUserContentPart => {
      if (part.type !== 'image' || toDrop === 0) return part
      toDrop--
      return {
        type: 'text',
        text: `[image (${part.mimeType}) left out: a request to this provider carries at most ${limit} images]`
      }
    })
    return { ...message, content } as LLMMessage
  })
}

function imageCount(message: LLMMessage): number {
  if ((message.role !== 'user' && message.role !== 'tool') || typeof message.content === 'string') return 0
  return message.content.filter((part) => part.type === 'image').length
}
