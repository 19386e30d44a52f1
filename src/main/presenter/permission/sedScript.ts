import type { ParsedArgs } from './optionParser'
import type { Verdict } from './programUse'
import { reasonOf } from './reasonText'

/** sed commands we can read: `5p`, `1,10d`, `/re/p`, `s/a/b/g`. `w`, `e`, `r` and the like change things. */
const SED_ADDRESS = String.raw`((\d+|\$)(,(\d+|\$))?|\/[^/]*\/)?\s*`
const SED_PRINT = new RegExp(`^${SED_ADDRESS}[pdq=]$`)
const SED_SUBSTITUTE_START = new RegExp(`^${SED_ADDRESS}s`)

function isSafeSedCommand(command: string): boolean {
  const text = command.trim()
  if (text === '' || SED_PRINT.test(text)) return true
  const start = SED_SUBSTITUTE_START.exec(text)
  if (!start) return false
  const delimiter = text[start[0].length]
  if (!delimiter || /[\s\\\n]/.test(delimiter)) return false
  // Walk pattern and replacement (honouring backslash escapes); what remains are the flags.
  let index = start[0].length + 1
  for (let part = 0; part < 2; part++) {
    while (index < text.length && text[index] !== delimiter) index += text[index] === '\\' ? 2 : 1
    if (index >= text.length) return false
    index++
  }
  return /^[gpiIm0-9]*$/.test(text.slice(index))
}

/** `--in`, `--in-pl`: GNU sed takes any unambiguous prefix of a long option. */
const isLong = (name: string, full: string): boolean => name.length > 2 && full.startsWith(name)

/**
 * sed is read-only only when every script command prints, deletes or quits, or is a plain
 * `s///`. `-i` edits in place; `-f` runs a script we cannot see. Null means read-only.
 */
export function classifySed(parsed: ParsedArgs): Verdict | null {
  const names = parsed.options.map((o) => o.name)
  if (names.some((n) => n === '-i' || isLong(n, '--in-place')))
    return { category: 'writes', reason: reasonOf('sed_in_place') }
  if (names.some((n) => n === '-f' || isLong(n, '--file')))
    return { category: 'unknown', reason: reasonOf('sed_script_file') }
  const scripts = parsed.options
    .filter((o) => o.name === '-e' || isLong(o.name, '--expression'))
    .map((o) => o.value ?? { text: '', dynamic: false })
  if (scripts.length === 0 && parsed.operands[0]) scripts.push(parsed.operands[0])
  if (scripts.every((s) => !s.dynamic && s.text.split(/[;\n]/).every(isSafeSedCommand))) return null
  return { category: 'unknown', reason: reasonOf('sed_unsafe_script') }
}
