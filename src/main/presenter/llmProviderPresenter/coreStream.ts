import { streamText, type LanguageModel, type ModelMessage, type ToolSet, type TextStreamPart } from 'ai'
import type { LLMCoreStreamEvent, ProviderOptions } from '@shared/types/llm'
import { adaptStream, type AttemptOutcome } from './streamAdapter'
import { isRetryable, type ClassifiedError } from './errors'

export interface StreamAttemptInput {
  model: LanguageModel
  system?: string
  messages: ModelMessage[]
  tools?: ToolSet
  temperature?: number
  maxTokens?: number
  providerOptions?: ProviderOptions
}

export interface RetryPolicy {
  maxRetries: number
  /** First backoff; doubles each retry. A provider's retry-after wins when given. */
  baseDelayMs: number
  maxDelayMs: number
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 30_000 }

/**
 * Streams one request with retries. Rate-limit and server errors are retried with backoff,
 * but only while nothing has been yielded yet: once a token reached the caller, a retry would
 * duplicate output. Never throws: every failure ends as `error` + `stop('error')`.
 */
export async function* streamWithRetry(
  input: StreamAttemptInput,
  signal: AbortSignal,
  policy: RetryPolicy
): AsyncGenerator<LLMCoreStreamEvent> {
  // Our own controller, so that a consumer that stops iterating early (break, return, throw)
  // also closes the HTTP request, not only one that aborts the caller's signal.
  const local = new AbortController()
  const forward = () => local.abort(signal.reason)
  if (signal.aborted) forward()
  else signal.addEventListener('abort', forward, { once: true })
  try {
    yield* attempts(input, signal, local.signal, policy)
  } finally {
    signal.removeEventListener('abort', forward)
    local.abort()
  }
}

async function* attempts(
  input: StreamAttemptInput,
  signal: AbortSignal,
  requestSignal: AbortSignal,
  policy: RetryPolicy
): AsyncGenerator<LLMCoreStreamEvent> {
  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) return yield* failWith({ code: 'aborted', message: 'The request was aborted' })
    const outcome: AttemptOutcome = { producedContent: false }
    yield* adaptStream(abortable(startAttempt(input, requestSignal), requestSignal), outcome)
    if (!outcome.failure) return
    const failure = signal.aborted ? { code: 'aborted' as const, message: 'The request was aborted' } : outcome.failure
    if (!outcome.producedContent && isRetryable(failure.code) && attempt < policy.maxRetries) {
      const delay = failure.retryAfterMs ?? Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt)
      if (await sleep(Math.min(delay, policy.maxDelayMs), signal)) continue
      return yield* failWith({ code: 'aborted', message: 'The request was aborted' })
    }
    return yield* failWith(failure)
  }
}

function startAttempt(input: StreamAttemptInput, signal: AbortSignal): AsyncIterable<TextStreamPart<ToolSet>> {
  const result = streamText({
    model: input.model,
    system: input.system,
    messages: input.messages,
    // Later system messages (rare: mid-conversation instructions) are ours, not injected.
    allowSystemInMessages: true,
    tools: input.tools,
    temperature: input.temperature,
    maxOutputTokens: input.maxTokens,
    providerOptions: input.providerOptions as never,
    abortSignal: signal,
    // We retry ourselves (only before the first token, honouring retry-after).
    maxRetries: 0,
    // Errors arrive as stream parts; without this the SDK also prints them to the console.
    onError: () => {}
  })
  return result.fullStream
}

function* failWith(failure: ClassifiedError): Generator<LLMCoreStreamEvent> {
  yield {
    type: 'error',
    code: failure.code,
    error_message: failure.message,
    ...(failure.status !== undefined ? { status: failure.status } : {}),
    ...(failure.retryAfterMs !== undefined ? { retry_after_ms: failure.retryAfterMs } : {})
  }
  yield { type: 'stop', stop_reason: 'error' }
}

/**
 * Ends iteration the moment `signal` aborts, even if the source is stuck waiting for bytes
 * that never come; the source is then cancelled in the background (its fetch shares the
 * signal, so the socket closes too).
 */
async function* abortable<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]()
  let onAbort: (() => void) | undefined
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted')
    if (signal.aborted) resolve('aborted')
    else signal.addEventListener('abort', onAbort, { once: true })
  })
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted])
      if (next === 'aborted') {
        const error = new Error('The request was aborted')
        error.name = 'AbortError'
        throw error
      }
      if (next.done) return
      yield next.value
    }
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort)
    void iterator.return?.()?.catch(() => {})
  }
}

/** Resolves true after `ms`, or false as soon as the signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false)
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve(true)
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      resolve(false)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
