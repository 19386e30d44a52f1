import type { ProviderKind } from '@shared/types/provider'

/**
 * Adaptive delta coalescing. When many text/reasoning deltas are already buffered together
 * (a fast model, a busy main process), they are merged into one SSE event before the AI SDK
 * parses them: the SDK's per-event cost (several web-stream stages and a schema check) is
 * paid once per merge instead of once per token. Nothing waits for more bytes, so latency is
 * unchanged; events that are not plain deltas (tool calls, finish, usage, errors) pass through
 * untouched and in order.
 */

type WireFormat = 'openai' | 'anthropic' | 'gemini'
type Json = Record<string, unknown>

interface Mergeable {
  /** Deltas merge only with the same key (same field, same content block). */
  key: string
  text: string
  /** The parsed event and the field holding the text, to re-serialize a merged run. */
  json: Json
  field: string
}

export function wireFormatOf(kind: ProviderKind): WireFormat {
  if (kind === 'anthropic') return 'anthropic'
  if (kind === 'gemini' || kind === 'vertex') return 'gemini'
  return 'openai'
}

/** A fetch that coalesces the SSE body of successful streaming responses. */
export function coalescingFetch(format: WireFormat, inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init)
    const type = response.headers.get('content-type') ?? ''
    if (!response.ok || !response.body || !type.includes('text/event-stream')) return response
    return new Response(coalesceStream(response.body, format), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers
    })
  }
}

export function coalesceStream(
  source: ReadableStream<Uint8Array>,
  format: WireFormat
): ReadableStream<Uint8Array> {
  const reader = source.getReader()
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let buffer = ''
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) {
          buffer += decoder.decode()
          if (buffer) controller.enqueue(encoder.encode(buffer))
          controller.close()
          return
        }
        buffer += decoder.decode(value, { stream: true })
        const { complete, rest } = splitEvents(buffer)
        buffer = rest
        if (complete.length) {
          controller.enqueue(encoder.encode(mergeEvents(complete, format)))
          return
        }
      }
    },
    cancel(reason) {
      return reader.cancel(reason)
    }
  })
}

/** Complete events (each without its terminating blank line) and the unfinished tail. */
function splitEvents(buffer: string): { complete: string[]; rest: string } {
  const normalized = buffer.includes('\r') ? buffer.replace(/\r\n?/g, '\n') : buffer
  const last = normalized.lastIndexOf('\n\n')
  if (last === -1) return { complete: [], rest: normalized }
  const complete = normalized
    .slice(0, last)
    .split('\n\n')
    .filter((e) => e.length > 0)
  return { complete, rest: normalized.slice(last + 2) }
}

export function mergeEvents(events: string[], format: WireFormat): string {
  const out: string[] = []
  let pending: Mergeable | undefined
  let pendingRaw = ''
  let pieces: string[] = []
  let template: Template | undefined
  const flush = () => {
    if (!pending) return
    // A single event is passed on byte for byte; only real merges are re-serialized.
    out.push(pieces.length === 1 ? pendingRaw : rebuild(format, pending, pieces.join('')), '\n\n')
    pending = undefined
    pieces = []
  }
  for (const event of events) {
    if (template) {
      const text = textByTemplate(event, template)
      if (text !== undefined) {
        pieces.push(text)
        continue
      }
    }
    const mergeable = asMergeable(event, format)
    if (mergeable && pending && pending.key === mergeable.key) {
      pieces.push(mergeable.text)
      continue
    }
    flush()
    template = undefined
    if (mergeable) {
      pending = mergeable
      pendingRaw = event
      pieces = [mergeable.text]
      template = templateOf(event, mergeable)
    } else {
      out.push(event, '\n\n')
    }
  }
  flush()
  return out.join('')
}

/**
 * Streams repeat the same envelope around each delta. Once a run's first event is parsed, a
 * later event that is byte-identical except for the text value is read without a full parse:
 * same bytes before, same bytes after, and a middle that is one complete JSON string.
 */
interface Template {
  prefix: string
  suffix: string
}

function templateOf(raw: string, first: Mergeable): Template | undefined {
  const needle = `"${first.field}":${JSON.stringify(first.text)}`
  const at = raw.indexOf(needle)
  if (at === -1 || raw.indexOf(needle, at + 1) !== -1) return undefined
  const valueStart = at + first.field.length + 3
  return {
    prefix: raw.slice(0, valueStart),
    suffix: raw.slice(valueStart + needle.length - first.field.length - 3)
  }
}

// eslint-disable-next-line no-control-regex -- control characters are what makes a JSON string invalid
const PLAIN_JSON_STRING = /^"[^"\\\u0000-\u001f]*"$/

function textByTemplate(event: string, template: Template): string | undefined {
  const { prefix, suffix } = template
  if (
    event.length < prefix.length + suffix.length + 2 ||
    !event.startsWith(prefix) ||
    !event.endsWith(suffix)
  )
    return undefined
  const middle = event.slice(prefix.length, event.length - suffix.length)
  // Most deltas need no unescaping: then the JSON string is its own text.
  if (PLAIN_JSON_STRING.test(middle)) return middle.slice(1, -1)
  if (middle.charCodeAt(0) !== 34 || middle.charCodeAt(middle.length - 1) !== 34) return undefined
  try {
    const text: unknown = JSON.parse(middle)
    return typeof text === 'string' ? text : undefined
  } catch {
    return undefined
  }
}

const ANTHROPIC_DELTA_PREFIX = 'event: content_block_delta\ndata:'

function asMergeable(event: string, format: WireFormat): Mergeable | undefined {
  // Only the plain one-line shapes are candidates; anything unusual (comments, ids, other
  // event names, multi-line data) is passed on exactly as it was.
  let data: string
  if (format === 'anthropic') {
    if (!event.startsWith(ANTHROPIC_DELTA_PREFIX)) return undefined
    data = event.slice(ANTHROPIC_DELTA_PREFIX.length)
  } else {
    if (!event.startsWith('data:')) return undefined
    data = event.slice(5)
  }
  if (data.includes('\n')) return undefined
  data = data.trimStart()
  if (data.charCodeAt(0) !== 123 /* { */) return undefined
  let json: unknown
  try {
    json = JSON.parse(data)
  } catch {
    return undefined
  }
  if (format === 'openai') return openAiDelta(json)
  if (format === 'anthropic') return anthropicDelta(json)
  return geminiDelta(json)
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

function openAiDelta(json: unknown): Mergeable | undefined {
  if (!isObject(json) || json.usage != null || json.error != null) return undefined
  const choices = json.choices
  if (!Array.isArray(choices) || choices.length !== 1 || !isObject(choices[0])) return undefined
  const choice = choices[0]
  if (choice.finish_reason != null || !isObject(choice.delta)) return undefined
  const delta = choice.delta
  let field: string | undefined
  for (const key in delta) {
    if (delta[key] == null) continue
    if (field !== undefined) return undefined // more than one field: not a plain delta
    field = key
  }
  if (field !== 'content' && field !== 'reasoning_content' && field !== 'reasoning') return undefined
  const text = delta[field]
  if (typeof text !== 'string') return undefined
  return { key: field, text, json, field }
}

function anthropicDelta(json: unknown): Mergeable | undefined {
  if (!isObject(json) || json.type !== 'content_block_delta' || !isObject(json.delta)) return undefined
  const delta = json.delta
  const field =
    delta.type === 'text_delta' ? 'text' : delta.type === 'thinking_delta' ? 'thinking' : undefined
  if (!field || typeof delta[field] !== 'string' || Object.keys(delta).length !== 2) return undefined
  return { key: `${String(json.index)}:${field}`, text: delta[field], json, field }
}

function geminiDelta(json: unknown): Mergeable | undefined {
  if (
    !isObject(json) ||
    json.usageMetadata != null ||
    !Array.isArray(json.candidates) ||
    json.candidates.length !== 1
  )
    return undefined
  const candidate = json.candidates[0]
  // A frame with grounding (the provider's web search sources) is passed on whole.
  if (
    !isObject(candidate) ||
    candidate.finishReason != null ||
    candidate.groundingMetadata != null ||
    !isObject(candidate.content)
  )
    return undefined
  const parts = candidate.content.parts
  if (!Array.isArray(parts) || parts.length !== 1 || !isObject(parts[0])) return undefined
  const part = parts[0]
  const keys = Object.keys(part)
  const plain = keys.every((k) => k === 'text' || k === 'thought') && typeof part.text === 'string'
  if (!plain) return undefined
  return { key: part.thought === true ? 'thought' : 'text', text: part.text as string, json, field: 'text' }
}

/** The first event of a run, re-serialized with the run's merged text. */
function rebuild(format: WireFormat, first: Mergeable, merged: string): string {
  const json = first.json
  if (format === 'openai') {
    const choice = (json.choices as Json[])[0]
    return `data: ${JSON.stringify({ ...json, choices: [{ ...choice, delta: { [first.field]: merged } }] })}`
  }
  if (format === 'anthropic') {
    const delta = json.delta as Json
    return `event: content_block_delta\ndata: ${JSON.stringify({ ...json, delta: { ...delta, [first.field]: merged } })}`
  }
  const candidate = (json.candidates as Json[])[0]
  const content = candidate.content as Json
  const part = (content.parts as Json[])[0]
  return `data: ${JSON.stringify({ ...json, candidates: [{ ...candidate, content: { ...content, parts: [{ ...part, text: merged }] } }] })}`
}
