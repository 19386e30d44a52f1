/**
 * Closes an unfinished JSON object well enough to read its string fields while the model is
 * still streaming arguments. Returns null when that does not work.
 */
export function jsonrepairSafe(text: string): Record<string, unknown> | null {
  let inString = false
  let escaped = false
  const stack: string[] = []
  for (const ch of text) {
    if (inString) {
      if (escaped) escaped = false
      else if (ch === '\\') escaped = true
      else if (ch === '"') inString = false
      continue
    }
    if (ch === '"') inString = true
    else if (ch === '{') stack.push('}')
    else if (ch === '[') stack.push(']')
    else if (ch === '}' || ch === ']') stack.pop()
  }
  let candidate = text
  if (escaped) candidate = candidate.slice(0, -1)
  if (inString) candidate += '"'
  candidate = candidate.replace(/[,:]\s*$/, '')
  candidate += stack.reverse().join('')
  try {
    const value = JSON.parse(candidate)
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}
