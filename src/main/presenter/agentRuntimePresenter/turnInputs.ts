import type { AttachmentInput, AttachmentView, MessageFile } from '@shared/types/attachments'
import type { AttachmentReader } from '../attachmentPresenter'

/** What a turn needs of the attachment store (AttachmentPresenter). */
export interface TurnAttachments {
  /** A send's attachments as the message records them; throws when one is not stored. */
  resolve(inputs: readonly AttachmentInput[]): MessageFile[]
  /** Stores bytes a send carried inline (pasted images). */
  addBytes(name: string, mimeType: string, bytes: Buffer): Promise<AttachmentView>
  reader(): AttachmentReader
}

/** A new chat's title: the first line of the message, cut at a word near 50 characters. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? ''
  if (line.length <= 50) return line || 'New Chat'
  const cut = line.slice(0, 50)
  const space = cut.lastIndexOf(' ')
  return `${space > 20 ? cut.slice(0, space) : cut}…`
}
