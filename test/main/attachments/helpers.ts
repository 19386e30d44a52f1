import type { RouteDef } from '@shared/contracts/define'
import type { AttachmentView } from '@shared/types/attachments'
import { ATTACHMENT_LIMITS } from '@shared/types/attachments'
import { call, type LoopHarness } from '../loop/helpers'
import type { OpenAiRequest } from '../../fixtures/llm/openAiRequest'
import {
  attachmentsBeginUpload,
  attachmentsFinishUpload,
  attachmentsUploadChunk
} from '@shared/contracts/routes/attachments.routes'

/** Uploads a file through the real chunked routes, the way the composer does. */
export async function upload(
  h: LoopHarness,
  name: string,
  bytes: Buffer,
  mimeType = '',
  chunkBytes: number = ATTACHMENT_LIMITS.chunkBytes
): Promise<AttachmentView> {
  const { uploadId } = await call(h, attachmentsBeginUpload, { name, mimeType, size: bytes.length })
  for (let index = 0, offset = 0; offset < bytes.length; index++, offset += chunkBytes) {
    const data = bytes.subarray(offset, offset + chunkBytes).toString('base64')
    await call(h, attachmentsUploadChunk, { uploadId, index, data })
  }
  return (await call(h, attachmentsFinishUpload, { uploadId })).attachment
}

/** Every user message's text of an OpenAI request body (string content or the text parts). */
export function userTexts(body: OpenAiRequest): string[] {
  return body.messages
    .filter((m) => m.role === 'user')
    .map((m) =>
      typeof m.content === 'string'
        ? m.content
        : (m.content ?? [])
            .filter((p) => p.type === 'text')
            .map((p) => p.text)
            .join('\n')
    )
}

/** Image parts (data URLs) of every user message in an OpenAI request body. */
export function userImages(body: OpenAiRequest): string[] {
  return body.messages
    .filter((m) => m.role === 'user' && Array.isArray(m.content))
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((p) => p.type === 'image_url')
    .map((p) => p.image_url?.url ?? '')
}

/** The error code a route answers `input` with (sent as a client would: unchecked), or undefined. */
export async function codeOf(h: LoopHarness, def: RouteDef, input: unknown): Promise<string | undefined> {
  const result = await h.router.invoke(def.name, input, { transport: 'test', clientId: 'test' })
  return result.ok ? undefined : result.error.code
}
