import { z } from 'zod'

/**
 * Files a user attaches to a message. Each is stored once by content hash in the data folder
 * (`<data>/attachments/<sha256>`); a message refers to it by hash with the name it was sent as.
 * `image` goes to vision models as an image part; the other kinds reach the model as text
 * extracted in main (PDF, Word, spreadsheets as tables, text and code as they are).
 */
export const AttachmentKind = z.enum(['image', 'pdf', 'docx', 'spreadsheet', 'csv', 'text'])
export type AttachmentKind = z.infer<typeof AttachmentKind>

export const Sha256 = z.string().regex(/^[a-f0-9]{64}$/, 'a lowercase hex SHA-256')

/** Limits the composer shows and main enforces. */
export const ATTACHMENT_LIMITS = {
  /** Largest single file (bytes). */
  maxFileBytes: 25 * 1024 * 1024,
  /** Largest image (bytes): providers refuse bigger ones. */
  maxImageBytes: 10 * 1024 * 1024,
  /** Files on one message. */
  maxFiles: 10,
  /** One upload chunk as base64 characters (well below the host's 8 MiB frame cap). */
  maxChunkChars: 1_500_000,
  /** Raw bytes per chunk the composer sends (base64 of this stays under maxChunkChars). */
  chunkBytes: 1024 * 1024
} as const

/** An attachment as the composer and the message chips show it. */
export const AttachmentView = z.object({
  sha256: Sha256,
  name: z.string().min(1).max(500),
  mimeType: z.string().max(200),
  size: z.number().int().nonnegative(),
  kind: AttachmentKind,
  /** Characters of text extracted for the model (0 for images). */
  textChars: z.number().int().nonnegative()
})
export type AttachmentView = z.infer<typeof AttachmentView>

/** What a send names: the stored content and the name it is shown with. */
export const AttachmentInput = z.object({ sha256: Sha256, name: z.string().trim().min(1).max(500) }).strict()
export type AttachmentInput = z.infer<typeof AttachmentInput>

/**
 * One file on a user message (`UserMessageContent.files`). Attachments carry `sha256`, `size` and
 * `kind`; messages from before the attachment store carry only `path` (an image saved per chat).
 */
export const MessageFile = z.object({
  name: z.string(),
  path: z.string().optional(),
  mimeType: z.string().optional(),
  sha256: Sha256.optional(),
  size: z.number().int().nonnegative().optional(),
  kind: AttachmentKind.optional()
})
export type MessageFile = z.infer<typeof MessageFile>
