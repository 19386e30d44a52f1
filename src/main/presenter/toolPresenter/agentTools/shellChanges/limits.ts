/** A file bigger than this is not kept: the turn lists it as changed but cannot put it back. */
export const SHELL_CAPTURE_MAX_FILE_BYTES = 512 * 1024
/** A command that changes more files than this (a build, an install) is recorded only this far. */
export const MAX_CHANGED_FILES = 200
/** A workspace with more files than this is not captured (watching or indexing it costs too much). */
export const SHELL_CAPTURE_MAX_FILES = 50_000
/**
 * How long a command waits for the picture before it (and the look after it): past this the
 * command runs, or its result returns, without its changes recorded.
 */
export const SHELL_CAPTURE_BUDGET_MS = 3_000
/** Left out of every capture besides `.gitignore` rules (git's `info/exclude` syntax). */
export const SHELL_CAPTURE_EXCLUDES = ['node_modules/', '.venv/', '__pycache__/', '.DS_Store'].join('\n')

/** What a shell command changed in the workspace: each file's content before it ran. */
export interface ShellChange {
  /** Path relative to the workspace. */
  path: string
  previousContent: string | null
  /** The previous content was not kept (too large, or not text). */
  notKept?: 'too_large' | 'binary'
}

export interface ShellCaptureResult {
  changes: ShellChange[]
  /** Set when the command's changes could not be recorded (or only in part): why, for the model and the user. */
  notRecorded?: string
}

export interface ShellCapture {
  /** Compares the workspace with the moment the capture started. */
  finish(): Promise<ShellCaptureResult>
}

export type ShellCaptureStart = { capture: ShellCapture } | { capture: null; notRecorded: string }

export const tooLargeText = (maxFiles: number) =>
  `the workspace has more than ${maxFiles.toLocaleString('en')} files, too many to snapshot before each command`
export const lateText = (when: 'before' | 'after', budgetMs: number) =>
  `the workspace snapshot ${when} the command took longer than ${budgetMs / 1000} s (it goes on in the background; later commands are recorded once it is done)`
