import type { ToolContentItem } from '@shared/types/tools'
import type { McpCallResult } from '../toolPresenter/mcpToolSource'

type RawItem = { type?: unknown; [key: string]: unknown }

/** Images one result may carry to the model and the block; the rest become one note. */
export const MAX_IMAGES_PER_RESULT = 20

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** One content item from an untrusted server → the shape the model and UI understand. */
export function mapContentItem(item: RawItem): ToolContentItem {
  switch (item.type) {
    case 'text':
      return { type: 'text', text: str(item.text) ?? '' }
    case 'image':
    case 'audio':
      return {
        type: item.type,
        data: str(item.data) ?? '',
        mimeType: str(item.mimeType) ?? 'application/octet-stream'
      }
    case 'resource': {
      const resource = (item.resource ?? {}) as RawItem
      return {
        type: 'resource',
        resource: {
          uri: str(resource.uri) ?? '',
          ...(str(resource.mimeType) ? { mimeType: str(resource.mimeType) } : {}),
          ...(str(resource.text) !== undefined ? { text: str(resource.text) } : {}),
          ...(str(resource.blob) !== undefined ? { blob: str(resource.blob) } : {})
        }
      }
    }
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: str(item.uri) ?? '',
        ...(str(item.name) ? { name: str(item.name) } : {}),
        ...(str(item.mimeType) ? { mimeType: str(item.mimeType) } : {}),
        ...(str(item.description) ? { description: str(item.description) } : {})
      }
    default:
      // A content type from a newer spec: keep it readable instead of dropping it.
      return { type: 'text', text: JSON.stringify(item) }
  }
}

/**
 * A tools/call result → McpCallResult. When a server returns `structuredContent` and no text, its JSON
 * becomes the text too, so a model that ignores structured data still sees the answer.
 */
export function mapCallResult(raw: Record<string, unknown>): McpCallResult {
  const items = Array.isArray(raw.content) ? (raw.content as RawItem[]) : []
  const content = items.map(mapContentItem)
  const result: McpCallResult = { content, isError: raw.isError === true }
  if (raw.structuredContent !== undefined) {
    result.structuredContent = raw.structuredContent
    // The model reads text: without a text item (the spec asks servers for one), the JSON is it.
    if (!content.some((item) => item.type === 'text'))
      content.push({ type: 'text', text: JSON.stringify(raw.structuredContent) })
  }
  // Legacy (2024-10-07) servers answer with `toolResult` instead of content.
  if (content.length === 0 && raw.toolResult !== undefined) {
    content.push({
      type: 'text',
      text: typeof raw.toolResult === 'string' ? raw.toolResult : JSON.stringify(raw.toolResult)
    })
  }
  result.content = capImages(content)
  return result
}

/** The first MAX_IMAGES_PER_RESULT images stay; a text note at the end says how many were dropped. */
function capImages(content: ToolContentItem[]): ToolContentItem[] {
  let images = 0
  const kept = content.filter((item) => item.type !== 'image' || ++images <= MAX_IMAGES_PER_RESULT)
  const dropped = images - MAX_IMAGES_PER_RESULT
  if (dropped > 0)
    kept.push({
      type: 'text',
      text: `[${dropped} more image${dropped > 1 ? 's' : ''} from this result ${dropped > 1 ? 'were' : 'was'} dropped: a tool result carries at most ${MAX_IMAGES_PER_RESULT}]`
    })
  return kept
}
