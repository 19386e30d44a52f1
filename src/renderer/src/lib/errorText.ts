import { BridgeError } from '@renderer/api/bridge'

/** A readable message from anything a bridge call (or anything else) throws. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

interface Translator {
  t: (key: string) => string
  te: (key: string) => boolean
}

/**
 * The user's-language text for a BridgeError whose code has one under `prefix`
 * (`chat.input.settingsErrors.invalid_workspace`), else the error's own message.
 */
export function localizedErrorText(error: unknown, i18n: Translator, prefix: string): string {
  const key = error instanceof BridgeError ? `${prefix}.${error.code}` : null
  return key && i18n.te(key) ? i18n.t(key) : errorText(error)
}
