/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are checked by shape */
import type { AttachmentView } from '@shared/types/attachments'
import { ATTACHMENT_LIMITS } from '@shared/types/attachments'
import { route, type LoopHarness } from '../loop/helpers'

/** Uploads a file through the real chunked routes, the way the composer does. */
export async function upload(
  h: LoopHarness,
  name: string,
  bytes: Buffer,
  mimeType = '',
  chunkBytes: number = ATTACHMENT_LIMITS.chunkBytes
): Promise<AttachmentView> {
  const { uploadId } = await route(h, 'attachments.beginUpload', { name, mimeType, size: bytes.length })
  for (let index = 0, offset = 0; offset < bytes.length; index++, offset += chunkBytes) {
    const data = bytes.subarray(offset, offset + chunkBytes).toString('base64')
    await route(h, 'attachments.uploadChunk', { uploadId, index, data })
  }
  return (await route(h, 'attachments.finishUpload', { uploadId })).attachment
}

/** Every user message's text of an OpenAI request body (string content or the text parts). */
export function userTexts(body: any): string[] {
  return (body.messages as any[])
    .filter((m) => m.role === 'user')
    .map((m) =>
      typeof m.content === 'string'
        ? m.content
        : (m.content as any[])
            .filter((p) => p.type === 'text')
            .map((p) => p.text)
            .join('\n')
    )
}

/** Image parts (data URLs) of every user message in an OpenAI request body. */
export function userImages(body: any): string[] {
  return (body.messages as any[])
    .filter((m) => m.role === 'user' && Array.isArray(m.content))
    .flatMap((m) => (m.content as any[]).filter((p) => p.type === 'image_url').map((p) => p.image_url.url))
}

export function codeOf(h: LoopHarness, name: string, input: unknown): Promise<string | undefined> {
  return route(h, name, input).then(
    () => undefined,
    (error: { code?: string }) => error.code
  )
}
