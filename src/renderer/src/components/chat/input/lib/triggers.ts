/**
 * Where the composer's menus open: `/` at the very start of the message (a command), `@` at the
 * start of a word (a resource mention). Pure, so the rules are testable without a DOM.
 */
export interface Trigger {
  kind: 'slash' | 'mention'
  query: string
  /** The typed trigger's range in the text (replaced when an item is chosen). */
  start: number
  end: number
}

export function findTrigger(text: string, caret: number): Trigger | null {
  const before = text.slice(0, caret)
  const slash = /^\/([^\s/]*)$/.exec(before)
  if (slash) return { kind: 'slash', query: slash[1], start: 0, end: caret }
  const mention = /(^|\s)@([^\s@]*)$/.exec(before)
  if (mention) {
    const start = before.length - mention[2].length - 1
    return { kind: 'mention', query: mention[2], start, end: caret }
  }
  return null
}

/** The text with the trigger's range replaced. */
export function replaceTrigger(text: string, trigger: Trigger, replacement: string): string {
  return text.slice(0, trigger.start) + replacement + text.slice(trigger.end)
}

/** Case-insensitive match on any of the fields; the best (prefix) matches first. */
export function rankItems<T>(items: T[], query: string, fields: (item: T) => string[]): T[] {
  const q = query.toLowerCase()
  if (!q) return items
  const scored = items
    .map((item) => {
      const values = fields(item).map((f) => f.toLowerCase())
      const score = values.some((v) => v.startsWith(q)) ? 0 : values.some((v) => v.includes(q)) ? 1 : -1
      return { item, score }
    })
    .filter((s) => s.score >= 0)
  return scored.sort((a, b) => a.score - b.score).map((s) => s.item)
}

/** `{name}` placeholders of an MCP resource template (RFC 6570 level 1). */
export function templateFields(uriTemplate: string): string[] {
  return [...new Set([...uriTemplate.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]))]
}

export function fillUriTemplate(uriTemplate: string, values: Record<string, string>): string {
  return uriTemplate.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''))
}
