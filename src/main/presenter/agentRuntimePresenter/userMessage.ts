import type { LLMMessage, LLMUserContentPart } from '@shared/types/llm'
import type { MessageFile } from '@shared/types/attachments'
import type { UserMessageContent } from '@shared/types/session'
import type { AttachmentReader } from '../attachmentPresenter'

export interface UserMessageOptions {
  /** The model takes image parts; without it an image becomes a note saying it was not sent. */
  vision: boolean
  /** The attachment store (absent in tests that attach nothing). */
  attachments?: AttachmentReader
  /** Characters of extracted text one message may carry, shared by its files. */
  maxAttachmentChars: number
  log?: (message: string) => void
}

/** Attachments of a message may use about this share of the usable context. */
export const ATTACHMENT_BUDGET_SHARE = 0.5

const KIND_LABEL: Record<string, string> = {
  pdf: 'PDF',
  docx: 'Word document',
  spreadsheet: 'spreadsheet',
  csv: 'CSV table',
  text: 'text file'
}

/**
 * A user message for the provider: each attached document as its extracted text under its name
 * (cut to the message's share of the context, with a note saying so), then the user's text, and
 * images as image parts when the model has vision. An image a model cannot see is named in a
 * note instead, so nothing is dropped silently.
 */
export function userToMessage(content: UserMessageContent, options: UserMessageOptions): LLMMessage {
  const images: LLMUserContentPart[] = []
  const documents: string[] = []
  const notes: string[] = []
  const textFiles = content.files.filter((f) => f.sha256 && f.kind && f.kind !== 'image').length
  const perFile = Math.max(1_000, Math.floor(options.maxAttachmentChars / Math.max(1, textFiles)))
  for (const file of content.files) {
    try {
      if (isImage(file)) {
        if (!options.vision) {
          notes.push(
            `[The user attached the image "${file.name}", but this model cannot view images, so it was not sent.]`
          )
          continue
        }
        images.push({
          type: 'image',
          data: imageBase64(file, options),
          mimeType: file.mimeType ?? 'image/png'
        })
      } else if (file.sha256 && options.attachments) {
        documents.push(documentText(file, options.attachments.text(file.sha256), perFile))
      } else notes.push(`[Attached file ${file.name}: its content was not kept, so it was not sent]`)
    } catch (error) {
      options.log?.(`attachment unreadable: ${String(error)}`)
      notes.push(`[Attached file ${file.name} could not be read]`)
    }
  }
  const text = [...documents, content.text, ...notes].filter(Boolean).join('\n\n')
  if (images.length === 0) return { role: 'user', content: text }
  return { role: 'user', content: [{ type: 'text', text: text || 'The user attached images.' }, ...images] }
}

function isImage(file: MessageFile): boolean {
  return file.kind ? file.kind === 'image' : Boolean(file.mimeType?.startsWith('image/'))
}

/**
 * An image's bytes come only from the attachment store. A `path` on a message (older records, or
 * one planted by an imported chat or a restored backup) is never read: it could name any file.
 */
function imageBase64(file: MessageFile, options: UserMessageOptions): string {
  if (!file.sha256) throw new Error(`the image ${file.name} is not in the attachment store`)
  if (!options.attachments) throw new Error('no attachment store')
  return options.attachments.bytes(file.sha256).toString('base64')
}

function documentText(file: MessageFile, text: string, maxChars: number): string {
  const label = KIND_LABEL[file.kind ?? 'text'] ?? 'file'
  const body =
    text.length <= maxChars
      ? text
      : `${text.slice(0, maxChars)}\n[Truncated to fit the context: ${maxChars.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters shown.]`
  return `<attachment name="${file.name.replace(/"/g, "'")}" type="${label}">\n${body || '(no text found)'}\n</attachment>`
}

/** The characters of attachment text a message may carry for a model with this budget (tokens). */
export function attachmentCharsFor(budgetTokens: number): number {
  return Math.max(4_000, Math.floor(budgetTokens * ATTACHMENT_BUDGET_SHARE * 4))
}
