import { z } from 'zod'
import { defineRoute } from '../define'
import { ATTACHMENT_LIMITS, AttachmentInput, AttachmentView } from '../../types/attachments'

/** Whose draft: a chat's (its id), or the new-chat page's (null). */
const DraftScope = z.object({ sessionId: z.string().min(1).max(200).nullable() }).strict()

/** The longest draft kept: far beyond anything typed, well under a bridge frame. */
export const DRAFT_MAX_CHARS = 1_000_000

export const ComposerDraft = z.object({
  text: z.string().max(DRAFT_MAX_CHARS),
  /** Attachments already stored (uploads in flight are not part of a draft yet). */
  attachments: z.array(AttachmentView).max(ATTACHMENT_LIMITS.maxFiles),
  /** The new-chat page's chosen assistant. */
  assistantId: z.string().min(1).max(200).nullable()
})
export type ComposerDraft = z.infer<typeof ComposerDraft>

/** A chat's (or the new-chat page's) draft; null when there is none. Files no longer stored drop out. */
export const draftsGet = defineRoute({
  name: 'drafts.get',
  input: DraftScope,
  output: z.object({ draft: ComposerDraft.nullable() })
})

/** Replaces a draft unless a newer one is stored; an empty one (no text, files or assistant) reads as none. */
export const draftsSave = defineRoute({
  name: 'drafts.save',
  input: DraftScope.extend({
    text: z.string().max(DRAFT_MAX_CHARS),
    attachments: z.array(AttachmentInput).max(ATTACHMENT_LIMITS.maxFiles),
    assistantId: z.string().min(1).max(200).nullable().optional(),
    /**
     * When the composer held this draft (ms since the epoch). A save older than the one stored is
     * ignored: two pages of one chat (a reload, another window) may deliver theirs out of order.
     */
    typedAt: z.number().int().nonnegative().optional()
  }).strict(),
  output: z.object({ saved: z.boolean() })
})
