/**
 * Env or header names whose values are credentials: main moves them to secret storage, and
 * the settings editors hide them by default (every other value is plain text).
 */
const SECRET_NAME = /key|token|secret|passw|auth|credential|cookie|session|bearer|private/i

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name)
}
