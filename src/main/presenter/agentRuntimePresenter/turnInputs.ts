import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import type { ChatImageInput } from '@shared/types/chat'
import type { UserMessageContent } from '@shared/types/session'

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp'
}

/** Saves pasted images under the session's data folder; the message refers to them as files. */
export function saveImages(
  sessionDataDir: string,
  images: readonly ChatImageInput[]
): UserMessageContent['files'] {
  if (images.length === 0) return []
  const dir = join(sessionDataDir, 'uploads')
  mkdirSync(dir, { recursive: true })
  return images.map((image) => {
    const ext = EXTENSIONS[image.mimeType.toLowerCase()] ?? 'img'
    const path = join(dir, `${randomUUID()}.${ext}`)
    writeFileSync(path, Buffer.from(image.data, 'base64'))
    return { name: image.name ?? `image.${ext}`, path, mimeType: image.mimeType }
  })
}

/** A new chat's title: the first line of the message, cut at a word near 50 characters. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? ''
  if (line.length <= 50) return line || 'New Chat'
  const cut = line.slice(0, 50)
  const space = cut.lastIndexOf(' ')
  return `${space > 20 ? cut.slice(0, space) : cut}…`
}
