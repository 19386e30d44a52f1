/**
 * Electron accelerators ("CommandOrControl+Shift+D"), checked before they reach
 * `globalShortcut.register`, which would throw or silently do nothing on a typo.
 * Grammar: https://www.electronjs.org/docs/latest/api/accelerator — modifiers, then one key.
 */

const MODIFIERS = new Set([
  'command',
  'cmd',
  'control',
  'ctrl',
  'commandorcontrol',
  'cmdorctrl',
  'alt',
  'option',
  'altgr',
  'shift',
  'super',
  'meta'
])

const NAMED_KEYS = new Set([
  'plus',
  'space',
  'tab',
  'capslock',
  'numlock',
  'scrolllock',
  'backspace',
  'delete',
  'insert',
  'return',
  'enter',
  'up',
  'down',
  'left',
  'right',
  'home',
  'end',
  'pageup',
  'pagedown',
  'escape',
  'esc',
  'volumeup',
  'volumedown',
  'volumemute',
  'medianexttrack',
  'mediaprevioustrack',
  'mediastop',
  'mediaplaypause',
  'printscreen',
  'numdec',
  'numadd',
  'numsub',
  'nummult',
  'numdiv'
])

const LETTER_OR_DIGIT = /^[a-z0-9]$/i
const PUNCTUATION = new Set([...')!@#$%^&*(:;=<,_->.?/~`{][|\\}"\''])
const FUNCTION_KEY = /^f([1-9]|1[0-9]|2[0-4])$/i
const NUMPAD_DIGIT = /^num[0-9]$/i

function isKey(token: string): boolean {
  const lower = token.toLowerCase()
  return (
    LETTER_OR_DIGIT.test(token) ||
    PUNCTUATION.has(token) ||
    FUNCTION_KEY.test(token) ||
    NUMPAD_DIGIT.test(token) ||
    NAMED_KEYS.has(lower)
  )
}

/**
 * Why an accelerator cannot be a global shortcut, or null when it can. A global shortcut needs a
 * modifier: a bare key would be taken from every other app on the desktop.
 */
export function globalShortcutProblem(accelerator: string): string | null {
  if (accelerator.trim() !== accelerator || accelerator === '')
    return 'Write the shortcut without spaces, like CommandOrControl+Shift+D'
  const tokens = accelerator.split('+')
  if (tokens.some((t) => t === '')) return `"${accelerator}" has an empty part; write the plus key as Plus`
  const key = tokens[tokens.length - 1]
  const modifiers = tokens.slice(0, -1)
  if (modifiers.length === 0)
    return 'A global shortcut needs at least one modifier (CommandOrControl, Alt, Shift, Super)'
  const unknown = modifiers.find((m) => !MODIFIERS.has(m.toLowerCase()))
  if (unknown) {
    return isKey(unknown)
      ? `Only one key may follow the modifiers ("${unknown}" and "${key}")`
      : `Unknown modifier "${unknown}"`
  }
  const seen = new Set<string>()
  for (const modifier of modifiers) {
    if (seen.has(modifier.toLowerCase())) return `The modifier "${modifier}" appears twice`
    seen.add(modifier.toLowerCase())
  }
  if (MODIFIERS.has(key.toLowerCase())) return 'The shortcut needs a key after the modifiers, like D or F5'
  if (!isKey(key)) return `Unknown key "${key}"`
  return null
}
