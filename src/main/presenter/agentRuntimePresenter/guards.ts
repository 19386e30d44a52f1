import type { BlockOf, MessageBlock } from '@shared/types/blocks'
import type { ChatErrorCode } from '@shared/types/chat'
import type { CompletedToolCall } from './blockAccumulator'

export const MAX_TOOL_CALLS_PER_TURN = 128
/** The same call with the same arguments this many times in a row stops the turn. */
export const REPEAT_LIMIT = 3

export type GuardVerdict = { ok: true } | { ok: false; code: ChatErrorCode; message: string }

/**
 * Checks a round's calls before any of them runs. Earlier calls are counted from the message's
 * blocks, so the cap holds across pauses and resumes of the same turn.
 */
export function checkRound(
  blocks: readonly MessageBlock[],
  calls: readonly CompletedToolCall[]
): GuardVerdict {
  const newIds = new Set(calls.map((c) => c.blockId))
  const earlier = blocks.filter(
    (b): b is BlockOf<'tool_call'> => b.kind === 'tool_call' && !newIds.has(b.id) && b.status !== 'cancelled'
  )
  if (earlier.length + calls.length > MAX_TOOL_CALLS_PER_TURN) {
    return {
      ok: false,
      code: 'tool_call_limit',
      message: `Stopped: this turn reached the limit of ${MAX_TOOL_CALLS_PER_TURN} tool calls. Send a message to continue.`
    }
  }
  const sequence = [
    ...earlier.map((b) => signature(b.toolCall.name, b.toolCall.params)),
    ...calls.map((c) => signature(c.name, c.arguments))
  ]
  let run = 1
  for (let i = 1; i < sequence.length; i++) {
    run = sequence[i] === sequence[i - 1] ? run + 1 : 1
    if (run >= REPEAT_LIMIT && i >= earlier.length) {
      const call = calls[i - earlier.length]
      return {
        ok: false,
        code: 'repeated_tool_call',
        message: `Stopped: the model called ${call.name} with the same arguments ${REPEAT_LIMIT} times in a row without making progress.`
      }
    }
  }
  return { ok: true }
}

/** Name plus arguments with keys sorted, so `{a,b}` and `{b,a}` count as the same call. */
export function signature(name: string, args: string): string {
  try {
    return `${name}:${JSON.stringify(sortKeys(JSON.parse(args || '{}')))}`
  } catch {
    return `${name}:${args.trim()}`
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])])
    )
  }
  return value
}
