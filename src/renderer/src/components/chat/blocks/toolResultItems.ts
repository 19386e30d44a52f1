import type { ToolContentItem } from '@shared/types/tools'

/** One tool result item as the UI shows it; anything it cannot show safely becomes `other`. */
export type ToolResultRow =
  | { kind: 'text'; text: string }
  | { kind: 'image'; src: string; mimeType: string }
  | { kind: 'audio'; src: string; mimeType: string }
  | { kind: 'resource'; uri: string; mimeType?: string; text?: string; bytes?: number }
  | { kind: 'link'; uri: string; name: string; description?: string; external: boolean }
  | { kind: 'other'; label: string }

const IMAGE = /^image\/(png|jpe?g|gif|webp|bmp|avif|svg\+xml)$/i
const AUDIO = /^audio\/[a-z0-9.+-]+$/i
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** Bytes a base64 payload decodes to. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding)
}

/** Only web links leave the app (through the system browser); file:, data: and the rest stay text. */
export function isExternalLink(uri: string): boolean {
  try {
    const { protocol } = new URL(uri)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}

// A data: URL only for media types the page can show and a payload that is really base64: a
// server names its own types, and nothing else may reach an `src`.
function dataUrl(mimeType: string, data: string, allowed: RegExp): string | null {
  return allowed.test(mimeType) && BASE64.test(data) ? `data:${mimeType};base64,${data}` : null
}

export function toResultRows(items: readonly ToolContentItem[]): ToolResultRow[] {
  return items.map((item): ToolResultRow => {
    switch (item.type) {
      case 'text':
        return { kind: 'text', text: item.text }
      case 'image': {
        const src = dataUrl(item.mimeType, item.data, IMAGE)
        return src ? { kind: 'image', src, mimeType: item.mimeType } : { kind: 'other', label: item.mimeType }
      }
      case 'audio': {
        const src = dataUrl(item.mimeType, item.data, AUDIO)
        return src ? { kind: 'audio', src, mimeType: item.mimeType } : { kind: 'other', label: item.mimeType }
      }
      case 'resource': {
        const { uri, mimeType, text, blob } = item.resource
        return {
          kind: 'resource',
          uri,
          mimeType,
          text,
          bytes: blob === undefined ? undefined : base64Bytes(blob)
        }
      }
      case 'resource_link':
        return {
          kind: 'link',
          uri: item.uri,
          name: item.name || item.uri,
          description: item.description,
          external: isExternalLink(item.uri)
        }
      default:
        return { kind: 'other', label: String((item as { type?: unknown }).type ?? 'unknown') }
    }
  })
}

/** Pretty JSON for `structuredContent`; a value JSON cannot hold shows as its text. */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value)
  } catch {
    return String(value)
  }
}
