/**
 * Text from an MCP server reaches the model and the UI only as printable text: an allowlist of
 * everything except Unicode's control, format, surrogate, private-use and unassigned characters
 * (general category C) and the default-ignorable ones (zero-width, bidi overrides and isolates,
 * Hangul fillers, tags), with `\n` and `\t` kept. Variation selectors stay: emoji need them.
 * Line breaks of other kinds become `\n`; terminal escape sequences go whole, so no `[31m` is left.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const TERMINAL_SEQUENCE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g
const LINE_BREAK = /\r\n?|[\u2028\u2029\x85]/g
const NOT_PRINTABLE = /[^\P{C}\n\t]|(?![\uFE00-\uFE0F\u{E0100}-\u{E01EF}])\p{Default_Ignorable_Code_Point}/gu
// Unicode property classes cost ~50 ms a megabyte; these plain ones let printable ASCII (most
// text, all base64) through at a few ms, and only the runs around it meet NOT_PRINTABLE.
const ONLY_PRINTABLE_ASCII = /^[\x20-\x7e\n\t]*$/
const OTHER_RUN = /[^\x20-\x7e\n\t]+/g

/** One string from a server, made safe to show and to send to a model. */
export function sanitizeServerText(text: string): string {
  if (ONLY_PRINTABLE_ASCII.test(text)) return text
  const flat = text.replace(TERMINAL_SEQUENCE, '').replace(LINE_BREAK, '\n')
  let out = ''
  let last = 0
  OTHER_RUN.lastIndex = 0
  for (let run = OTHER_RUN.exec(flat); run; run = OTHER_RUN.exec(flat)) {
    out += flat.slice(last, run.index) + run[0].replace(NOT_PRINTABLE, '')
    last = OTHER_RUN.lastIndex
  }
  return out + flat.slice(last)
}

/**
 * Every string (and object key) in a parsed JSON-RPC message, in place. Iterative, so a deeply
 * nested message from a hostile server cannot overflow the stack.
 */
export function sanitizeServerMessage<T>(message: T): T {
  if (typeof message === 'string') return sanitizeServerText(message) as T
  if (typeof message !== 'object' || message === null) return message
  const stack: object[] = [message]
  while (stack.length) {
    const node = stack.pop()!
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const value: unknown = node[i]
        if (typeof value === 'string') node[i] = sanitizeServerText(value)
        else if (typeof value === 'object' && value !== null) stack.push(value)
      }
      continue
    }
    const record = node as Record<string, unknown>
    for (const key of Object.keys(record)) {
      const value = record[key]
      const cleanKey = sanitizeServerText(key)
      if (cleanKey !== key) {
        delete record[key]
        if (Object.hasOwn(record, cleanKey)) continue // a cleaned key never overwrites a real one
      }
      const clean = typeof value === 'string' ? sanitizeServerText(value) : value
      // defineProperty: a key cleaned into `__proto__` stays a plain property.
      if (cleanKey !== key || clean !== value)
        Object.defineProperty(record, cleanKey, {
          value: clean,
          enumerable: true,
          writable: true,
          configurable: true
        })
      if (typeof value === 'object' && value !== null) stack.push(value)
    }
  }
  return message
}
