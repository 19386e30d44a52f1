import type { TapeEntryKind } from '@shared/types/tape'

/** Enough text to find an entry by any phrase in it, small enough to keep the index lean. */
export const MAX_SEARCH_TEXT_CHARS = 16_000
const SUMMARY_CHARS = 240

/**
 * The text the full-text index sees for an entry: a header line (`kind name`) and then every
 * string and number in the payload, in document order. Keys are left out: they are the same on
 * every entry and would match everything.
 */
export function buildSearchText(kind: TapeEntryKind, name: string | null, payload: unknown): string {
  const parts: string[] = []
  let length = 0
  const visit = (value: unknown): void => {
    if (length >= MAX_SEARCH_TEXT_CHARS) return
    if (typeof value === 'string') {
      if (value.length === 0) return
      parts.push(value)
      length += value.length + 1
    } else if (typeof value === 'number' || typeof value === 'boolean') {
      // Booleans carry no searchable meaning on their own; numbers (exit codes, ids) do.
      if (typeof value === 'number') {
        parts.push(String(value))
        length += 8
      }
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item)
    } else if (value && typeof value === 'object') {
      for (const item of Object.values(value)) visit(item)
    }
  }
  visit(payload)
  const body = parts.join('\n').slice(0, MAX_SEARCH_TEXT_CHARS)
  return `${kind} ${name ?? ''}\n${body}`
}

/** The searchable body without the header line. */
export function searchBody(searchText: string): string {
  const newline = searchText.indexOf('\n')
  return newline < 0 ? '' : searchText.slice(newline + 1)
}

export function summarize(searchText: string): string {
  const body = searchBody(searchText).replace(/\s+/g, ' ').trim()
  return body.length > SUMMARY_CHARS ? `${body.slice(0, SUMMARY_CHARS - 1)}…` : body
}
