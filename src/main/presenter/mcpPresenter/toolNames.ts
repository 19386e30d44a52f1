import { createHash } from 'node:crypto'
import { MCP_TOOL_SEPARATOR, type McpToolNameFlag } from '@shared/types/mcp'

/** Provider APIs accept `[a-zA-Z0-9_-]{1,64}` as a tool name. */
export const MAX_TOOL_NAME = 64

export interface ExposedToolName {
  name: string
  flags: McpToolNameFlag[]
}

/** Replaces what providers refuse: `get.events` → `get_events`, `bad name!` → `bad_name`. */
export function sanitizeToolName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '')
}

function hash8(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 8)
}

function withSuffix(name: string, suffix: string): string {
  return `${name.slice(0, MAX_TOOL_NAME - suffix.length - 1)}_${suffix}`
}

/**
 * The names one server's tools are exposed under: `<slug>__<tool>`. They depend only on the
 * server's slug and its own tool names — never on other servers, which are running, or the
 * display name — so a chat keeps calling the same names across enable/disable/rename.
 * Built-in names never contain `__`, so they cannot be met. Valid names claim theirs first, so a
 * rewritten `a.b` that meets a real `a_b` is the one that gets the hash.
 */
export function exposeToolNames(slug: string, toolNames: readonly string[]): Map<string, ExposedToolName> {
  const out = new Map<string, ExposedToolName>()
  const taken = new Set<string>()
  const valid = toolNames.filter((name) => sanitizeToolName(name) === name)
  const rewritten = toolNames.filter((name) => sanitizeToolName(name) !== name)
  for (const original of [...valid, ...rewritten]) {
    if (out.has(original)) continue
    const flags: McpToolNameFlag[] = []
    const sanitized = sanitizeToolName(original)
    if (sanitized !== original) flags.push('invalid_chars')
    let name = `${slug}${MCP_TOOL_SEPARATOR}${sanitized || 'tool'}`
    if (name.length > MAX_TOOL_NAME) {
      name = withSuffix(name, hash8(`${slug}/${original}`))
      flags.push('shortened')
    }
    for (let attempt = 0; taken.has(name); attempt++) {
      name = withSuffix(`${slug}${MCP_TOOL_SEPARATOR}${sanitized || 'tool'}`, hash8(`${original}#${attempt}`))
      if (!flags.includes('deduplicated')) flags.push('deduplicated')
    }
    taken.add(name)
    out.set(original, { name, flags })
  }
  return out
}

/** The slug part of an exposed name (`github__search` → `github`), if it has one. */
export function slugOfExposedName(name: string): string | undefined {
  const at = name.indexOf(MCP_TOOL_SEPARATOR)
  return at > 0 ? name.slice(0, at) : undefined
}
