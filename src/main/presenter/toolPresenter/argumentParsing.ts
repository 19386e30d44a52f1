import { jsonrepair } from 'jsonrepair'
import type { z } from 'zod'

export type ParsedArguments =
  { ok: true; value: Record<string, unknown>; repaired: boolean } | { ok: false; message: string }

/** The model's raw argument text: JSON, else repaired JSON, else a message it can fix. */
export function parseToolArguments(raw: string): ParsedArguments {
  const text = raw.trim()
  if (text === '') return { ok: true, value: {}, repaired: false }
  let value: unknown
  let repaired = false
  try {
    value = JSON.parse(text)
  } catch (parseError) {
    try {
      value = JSON.parse(jsonrepair(text))
      repaired = true
    } catch {
      return {
        ok: false,
        message: `Arguments are not valid JSON (${(parseError as Error).message}). Send one JSON object.`
      }
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, message: 'Arguments must be a JSON object.' }
  }
  return { ok: true, value: value as Record<string, unknown>, repaired }
}

/** `path: message; other: message` — short enough for the model to act on. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.')
      return path ? `${path}: ${issue.message}` : issue.message
    })
    .join('; ')
}
