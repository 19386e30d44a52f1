import { z } from 'zod'

/** One path a previewed command would create, change or delete (relative to the workspace). */
export const PreviewFileChange = z.object({
  path: z.string(),
  change: z.enum(['created', 'changed', 'deleted']),
  /** `text` carries `before`/`after` for a diff; the other kinds carry sizes only. */
  kind: z.enum(['text', 'binary', 'too_large', 'folder', 'link']),
  before: z.string().nullable(),
  after: z.string().nullable(),
  sizeBefore: z.number().int().nullable(),
  sizeAfter: z.number().int().nullable(),
  /** A protected name (`.git`, `.envrc`, `.vscode`, …) anywhere in its path. */
  protectedEntry: z.boolean().optional()
})
export type PreviewFileChange = z.infer<typeof PreviewFileChange>

/** Something the preview tried and the sandbox refused: the network, or a write outside the workspace. */
export const PreviewRefusal = z.object({
  kind: z.enum(['network', 'outside_write']),
  /** The output line that says so, or the outside path it wrote (in the preview's scratch). */
  detail: z.string()
})
export type PreviewRefusal = z.infer<typeof PreviewRefusal>

/** The limits a preview runs under; the card shows them. */
export const PreviewLimits = z.object({
  timeMs: z.number().int(),
  maxBytes: z.number().int(),
  maxFiles: z.number().int(),
  outputChars: z.number().int()
})
export type PreviewLimits = z.infer<typeof PreviewLimits>

/** Why there is no preview (the card says so, and approving runs the command for real). */
export const PreviewUnavailable = z.enum([
  'no_sandbox',
  'not_supported',
  'workspace_too_large',
  'background',
  'not_exec',
  'failed'
])
export type PreviewUnavailable = z.infer<typeof PreviewUnavailable>

/** Why approving will run the command for real instead of applying the preview's changes. */
export const PreviewRunReason = z.enum([
  'refused',
  'timed_out',
  'size_limit',
  'left_running',
  'protected',
  'workspace_changed',
  'unfinished'
])
export type PreviewRunReason = z.infer<typeof PreviewRunReason>

export const CommandPreview = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('unavailable'),
    reason: PreviewUnavailable,
    detail: z.string().optional(),
    limits: PreviewLimits
  }),
  z.object({
    status: z.literal('done'),
    exitCode: z.number().int().nullable(),
    timedOut: z.boolean(),
    /** Stopped because it wrote more than the size limit (in the copy, home or /tmp). */
    sizeExceeded: z.boolean().optional(),
    /** Processes it left running (a server started with `&`): they ended with the preview. */
    leftRunning: z.number().int().optional(),
    durationMs: z.number().int(),
    stdout: z.string(),
    stderr: z.string(),
    /** Characters of output dropped beyond the limit (the head is kept). */
    outputDropped: z.number().int(),
    files: z.array(PreviewFileChange),
    /** Changes beyond the listed ones (still applied on approval). */
    filesOmitted: z.number().int(),
    refused: z.array(PreviewRefusal),
    limits: PreviewLimits,
    /** What approving does as things stand: apply these changes, or run the command for real. */
    onApprove: z.enum(['apply', 'run']),
    runReason: PreviewRunReason.optional()
  })
])
export type CommandPreview = z.infer<typeof CommandPreview>
