/**
 * An error with a stable code that survives the bridge: the router turns it into
 * `{code, message}` and the renderer client rethrows it as an AppError with that code.
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

export function isAppError(error: unknown): error is AppError {
  return error instanceof Error && typeof (error as AppError).code === 'string'
}
