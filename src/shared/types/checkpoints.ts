import { z } from 'zod'
import { CHECKPOINT_TOOLS } from '../builtinTools'

/** One file a turn changed, as the turn's checkpoint remembers it. */
export const TurnFileChange = z.object({
  path: z.string(),
  /** Whether the file existed before the turn's first write or edit. */
  existedBefore: z.boolean(),
  edits: z.number().int().positive(),
  tools: z.array(z.enum(CHECKPOINT_TOOLS)),
  /** Changed by a shell command, its old content not kept (too large, not text): not revertible. */
  notKept: z.enum(['too_large', 'binary']).optional(),
  /** The tape entry holding the content before the turn. */
  snapshotEntryId: z.number().int(),
  /** A later turn changed the file too; reverting this turn also undoes that (the tape keeps it). */
  changedLater: z.boolean()
})
export type TurnFileChange = z.infer<typeof TurnFileChange>

export const TurnCheckpoint = z.object({
  sessionId: z.string(),
  messageId: z.string(),
  files: z.array(TurnFileChange),
  /** The `file/revert` entries already written for this turn. */
  revertEntryIds: z.array(z.number().int())
})
export type TurnCheckpoint = z.infer<typeof TurnCheckpoint>

/**
 * Why a revert left a file alone: it now leads outside the workspace, or through a link (the
 * file or a folder above it became one), it is no longer a regular file, or the system refused.
 */
export const SkipReason = z.enum(['outside_workspace', 'link', 'not_a_file', 'failed'])
export type SkipReason = z.infer<typeof SkipReason>

export const RevertResult = z.object({
  sessionId: z.string(),
  messageId: z.string(),
  files: z.array(
    z.object({
      path: z.string(),
      action: z.enum(['restored', 'deleted', 'unchanged', 'not_kept', 'skipped']),
      /** Set when `action` is `skipped`. */
      reason: SkipReason.optional()
    })
  ),
  revertEntryId: z.number().int()
})
export type RevertResult = z.infer<typeof RevertResult>

/**
 * The current content of a file a pending write would change. `hidden`: the preview may not
 * show it (the app's data folder, an unresolvable path); `too_large`/`binary`: not shown either.
 */
export const WritePreviewFile = z.object({
  path: z.string(),
  status: z.enum(['shown', 'missing', 'hidden', 'too_large', 'binary', 'unreadable']),
  content: z.string().nullable(),
  size: z.number().int().nonnegative().optional()
})
export type WritePreviewFile = z.infer<typeof WritePreviewFile>

/**
 * One side of a changed file's diff: its text, or why there is none (`absent`: the file did not
 * exist; `too_large`/`binary`: the checkpoint did not keep it, or it is too big to show).
 */
export const FileVersion = z.object({
  /** `not_followed`: the file on disk is now a link or outside the workspace; it was not read. */
  state: z.enum(['text', 'absent', 'too_large', 'binary', 'not_followed']),
  content: z.string().nullable()
})
export type FileVersion = z.infer<typeof FileVersion>

/** A file a turn changed: its content before the turn's first change and after its last one. */
export const TurnFileDiff = z.object({ path: z.string(), before: FileVersion, after: FileVersion })
export type TurnFileDiff = z.infer<typeof TurnFileDiff>
