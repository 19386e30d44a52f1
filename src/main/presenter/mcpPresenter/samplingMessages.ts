import { ErrorCode, McpError, type CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js'
import type { McpSamplingRequest } from '@shared/types/mcp'

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])
/** Images one sampling request may show the user and send; as for a tool result. */
export const MAX_SAMPLING_IMAGES = 20

/**
 * Sampling messages → what the dialog shows and the model runner takes. Only text and images
 * are supported; anything else is refused with InvalidParams rather than silently dropped.
 */
export function toSamplingMessages(
  messages: CreateMessageRequest['params']['messages']
): McpSamplingRequest['messages'] {
  const images = messages.reduce(
    (sum, m) =>
      sum + (Array.isArray(m.content) ? m.content : [m.content]).filter((p) => p.type === 'image').length,
    0
  )
  if (images > MAX_SAMPLING_IMAGES)
    throw new McpError(
      ErrorCode.InvalidParams,
      `A sampling request may carry at most ${MAX_SAMPLING_IMAGES} images (this one has ${images})`
    )
  return messages.map((message, index) => {
    const parts = Array.isArray(message.content) ? message.content : [message.content]
    const out: McpSamplingRequest['messages'][number] = { role: message.role }
    const texts: string[] = []
    for (const part of parts) {
      if (part.type === 'text') texts.push(part.text)
      else if (part.type === 'image') {
        if (!IMAGE_TYPES.has(part.mimeType))
          throw new McpError(
            ErrorCode.InvalidParams,
            `messages[${index}]: unsupported image type ${part.mimeType}`
          )
        out.image = { data: part.data, mimeType: part.mimeType }
      } else {
        throw new McpError(
          ErrorCode.InvalidParams,
          `messages[${index}]: ${part.type} content is not supported for sampling`
        )
      }
    }
    if (texts.length) out.text = texts.join('\n')
    return out
  })
}
