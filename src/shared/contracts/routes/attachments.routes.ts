import { z } from 'zod'
import { defineRoute } from '../define'
import { ATTACHMENT_LIMITS, AttachmentView } from '../../types/attachments'

const UploadId = z.string().min(1).max(100)

/**
 * Starts an upload of one file the user attached (paste, drop, the browser's file button). The
 * declared size is checked against the limits before any byte is sent.
 */
export const attachmentsBeginUpload = defineRoute({
  name: 'attachments.beginUpload',
  input: z
    .object({
      name: z.string().trim().min(1).max(500),
      mimeType: z.string().max(200),
      size: z.number().int().nonnegative()
    })
    .strict(),
  output: z.object({ uploadId: z.string() })
})

/** One chunk (base64, in order from 0): files larger than a bridge frame arrive in pieces. */
export const attachmentsUploadChunk = defineRoute({
  name: 'attachments.uploadChunk',
  input: z
    .object({
      uploadId: UploadId,
      index: z.number().int().nonnegative(),
      data: z.string().min(1).max(ATTACHMENT_LIMITS.maxChunkChars)
    })
    .strict(),
  output: z.object({ received: z.number().int() })
})

/**
 * Finishes an upload: the file is classified, its text extracted (PDF, Word, spreadsheets, CSV,
 * text) and stored once by content hash. A file that cannot be read fails here, clearly.
 */
export const attachmentsFinishUpload = defineRoute({
  name: 'attachments.finishUpload',
  input: z.object({ uploadId: UploadId }).strict(),
  output: z.object({ attachment: AttachmentView })
})

export const attachmentsCancelUpload = defineRoute({
  name: 'attachments.cancelUpload',
  input: z.object({ uploadId: UploadId }).strict(),
  output: z.object({ cancelled: z.boolean() })
})

/**
 * The desktop app's native file dialog; the chosen files are read in main. The headless host
 * answers `{supported: false}` and the page uploads instead. Cancelling gives no attachments.
 */
export const attachmentsPickFiles = defineRoute({
  name: 'attachments.pickFiles',
  input: z.object({ title: z.string().max(200).optional() }).strict(),
  output: z.discriminatedUnion('supported', [
    z.object({ supported: z.literal(false) }),
    z.object({ supported: z.literal(true), attachments: z.array(AttachmentView) })
  ])
})

/** An MCP server's resource (an `@` mention in the composer), read in main and stored as attachments. */
export const attachmentsFromMcpResource = defineRoute({
  name: 'attachments.fromMcpResource',
  input: z
    .object({
      serverId: z.string().min(1).max(200),
      uri: z.string().min(1).max(4_000),
      name: z.string().trim().min(1).max(500).optional()
    })
    .strict(),
  output: z.object({ attachments: z.array(AttachmentView) })
})
