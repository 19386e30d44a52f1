/**
 * The one error type whose code and message reach the client. The router turns an AppError into
 * `{code, message, details}`; anything else is logged and sent as `internal` with a neutral
 * message. Codes are snake_case and ours (`session_not_found`, `invalid_query`, ...): an error from
 * Node, SQLite or a library is mapped to one where it happens, never passed through with its own
 * code (`ENOENT`, `SQLITE_ERROR`). Subclasses exist only where a caller needs more than the code
 * (PermissionRequiredError carries the request the loop pauses on).
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown
  ) {
    super(message)
    this.name = 'AppError'
  }
}

/** An AppError (by class, never by the shape of its fields), optionally with this code. */
export function isAppError(error: unknown, code?: string): error is AppError {
  return error instanceof AppError && (code === undefined || error.code === code)
}
