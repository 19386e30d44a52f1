import { z } from 'zod'
import { MessageBlock } from './blocks'
import { MessageRole, MessageStatus, SessionRecord, UserMessageContent } from './session'

export const ChatExportFormat = z.enum(['markdown', 'html', 'json'])
export type ChatExportFormat = z.infer<typeof ChatExportFormat>

/** An attachment's bytes travel inside the JSON export, so an import does not depend on the old path. */
export const ExportedAttachment = z.object({
  name: z.string(),
  mimeType: z.string().optional(),
  /** Base64; absent when the file was gone or too large at export time. */
  data: z.string().optional()
})
export type ExportedAttachment = z.infer<typeof ExportedAttachment>

export const ExportedMessage = z.object({
  role: MessageRole,
  status: MessageStatus,
  content: UserMessageContent.nullable(),
  blocks: z.array(MessageBlock),
  metadata: z.record(z.string(), z.unknown()).default({}),
  attachments: z.array(ExportedAttachment).default([]),
  createdAt: z.number().int()
})
export type ExportedMessage = z.infer<typeof ExportedMessage>

export const CHAT_EXPORT_FORMAT = 'deepchat-desk.chat'
export const CHAT_EXPORT_VERSION = 1

/** The lossless JSON export of one chat; `chats.import` reads it back into a new chat. */
export const ChatExport = z.object({
  format: z.literal(CHAT_EXPORT_FORMAT),
  version: z.number().int().positive(),
  exportedAt: z.number().int(),
  chat: z.object({
    title: z.string(),
    providerId: z.string().nullable().optional(),
    modelId: z.string().nullable().optional(),
    createdAt: z.number().int()
  }),
  messages: z.array(ExportedMessage)
})
export type ChatExport = z.infer<typeof ChatExport>

/** A chat import: the new chat, and a note for each attachment that came back by name only. */
export const ChatImportResult = z.object({ session: SessionRecord, notes: z.array(z.string()) })
export type ChatImportResult = z.infer<typeof ChatImportResult>

/** A file the UI saves: a download in the browser, a save dialog in the desktop app. */
export const ExportedFile = z.object({ fileName: z.string(), mimeType: z.string(), content: z.string() })
export type ExportedFile = z.infer<typeof ExportedFile>
