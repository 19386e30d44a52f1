import { isComposingKey } from '@renderer/lib/imeKeys'
import { isMac } from '../../shortcuts/shortcuts'

/** Ctrl+F (Cmd+F on macOS), not while an IME composes. */
export function isFindKey(event: KeyboardEvent): boolean {
  if (isComposingKey(event) || event.altKey || event.shiftKey) return false
  const mod = isMac() ? event.metaKey : event.ctrlKey
  return mod && event.key.toLowerCase() === 'f'
}
