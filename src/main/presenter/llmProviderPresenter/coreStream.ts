import { streamText, type LanguageModel, type ModelMessage, type ToolSet, type TextStreamPart } from 'ai'
import type { LLMCoreStreamEvent, ProviderOptions } from '@shared/types/llm'
import { adaptStream, type AttemptOutcome } from './streamAdapter'
import { toSdkProviderOptions } from './messageMapper'
import { categoryOf, isRetryable, type ClassifiedError } from './errors'

export interface StreamAttemptInput {
  model: LanguageModel
  system?: string
  messages: ModelMessage[]
  tools?: ToolSet
  temperature?: number
  topP?: number
  maxTokens?: number
  providerOptions?: ProviderOptions
}

export interface RetryPolicy {
  maxRetries: number
  /** First backoff; doubles each retry. A provider's retry-after wins when given. */
  baseDelayMs: number
  maxDelayMs: number
  /**
   * A stream that delivers nothing for this long fails as `no_response` (a stall nobody
   * aborts, such as a gateway that accepts and never answers). Each provider may set its own
   * (`idleTimeoutSeconds`), for a local model that thinks for minutes before its first token.
   */
  idleTimeoutMs: number
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  idleTimeoutMs: 60_000
}

/**
 * Streams one request with retries. Rate-limit and server errors are retried with backoff
 * (a provider's `Retry-After` wins, for 429 and 5xx alike), but only while nothing has been
 * yielded yet: once a token reached the caller, a retry would duplicate output. Each wait is
 * announced with a `retry` event so the user sees it. Never throws: every failure ends as
 * `error` + `stop('error')`.
 */
export async function* streamWithRetry(
  input: StreamAttemptInput,
  signal: AbortSignal,
  policy: RetryPolicy
): AsyncGenerator<LLMCoreStreamEvent> {
  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) return yield* failWith({ code: 'aborted', message: 'The request was aborted' })
    const outcome: AttemptOutcome = { producedContent: false }
    // Stopped in `finally` whatever happens — including a consumer that simply stops
    // iterating (break/return/throw) — so the HTTP request never outlives the attempt.
    const watchdog = new IdleWatchdog(signal, policy.idleTimeoutMs)
    try {
      yield* adaptStream(watchdog.watch(startAttempt(input, watchdog.signal)), outcome)
    } finally {
      watchdog.stop()
    }
    if (!outcome.failure) return
    const failure: ClassifiedError = signal.aborted
      ? { code: 'aborted', message: 'The request was aborted' }
      : watchdog.fired
        ? {
            code: 'network',
            // Silence from the start is a stuck gateway or model; after some output, a stall.
            category: outcome.producedContent ? 'timeout' : 'no_response',
            message: `The provider sent nothing for ${(policy.idleTimeoutMs / 1000).toFixed(policy.idleTimeoutMs < 10_000 ? 1 : 0)} s`
          }
        : outcome.failure
    if (!outcome.producedContent && isRetryable(failure.code) && attempt < policy.maxRetries) {
      const delay = Math.min(policy.maxDelayMs, failure.retryAfterMs ?? policy.baseDelayMs * 2 ** attempt)
      yield {
        type: 'retry',
        attempt: attempt + 1,
        max_retries: policy.maxRetries,
        delay_ms: delay,
        category: categoryOf(failure) ?? 'server',
        error_message: failure.message
      }
      if (await sleep(delay, signal)) continue
      return yield* failWith({ code: 'aborted', message: 'The request was aborted' })
    }
    return yield* failWith(failure)
  }
}

function startAttempt(
  input: StreamAttemptInput,
  signal: AbortSignal
): AsyncIterable<TextStreamPart<ToolSet>> {
  const result = streamText({
    model: input.model,
    system: input.system,
    messages: input.messages,
    // Later system messages (rare: mid-conversation instructions) are ours, not injected.
    allowSystemInMessages: true,
    tools: input.tools,
    temperature: input.temperature,
    topP: input.topP,
    maxOutputTokens: input.maxTokens,
    providerOptions: toSdkProviderOptions(input.providerOptions),
    abortSignal: signal,
    // We retry ourselves (only before the first token, honouring retry-after).
    maxRetries: 0,
    // Errors arrive as stream parts; without this the SDK also prints them to the console.
    onError: () => {}
  })
  return result.fullStream
}

function* failWith(failure: ClassifiedError): Generator<LLMCoreStreamEvent> {
  const category = categoryOf(failure)
  yield {
    type: 'error',
    code: failure.code,
    error_message: failure.message,
    ...(failure.status !== undefined ? { status: failure.status } : {}),
    ...(failure.retryAfterMs !== undefined ? { retry_after_ms: failure.retryAfterMs } : {}),
    ...(category ? { category } : {})
  }
  yield { type: 'stop', stop_reason: 'error' }
}

/**
 * One attempt's signal: aborted by the caller, or by the watchdog when no part has arrived
 * for `idleMs`. Checked on an interval rather than re-armed per part, which is cheaper when
 * thousands of parts stream by.
 */
class IdleWatchdog {
  private readonly controller = new AbortController()
  private readonly timer: ReturnType<typeof setInterval>
  private lastActivity = Date.now()
  fired = false

  constructor(
    private readonly parent: AbortSignal,
    idleMs: number
  ) {
    this.parent.addEventListener('abort', this.forward, { once: true })
    if (parent.aborted) this.forward()
    this.timer = setInterval(
      () => {
        if (Date.now() - this.lastActivity < idleMs) return
        this.fired = true
        this.controller.abort()
      },
      Math.max(5, Math.min(1000, idleMs / 4))
    )
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  async *watch<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
    for await (const item of abortable(source, this.controller.signal)) {
      this.lastActivity = Date.now()
      yield item
    }
  }

  /** Ends the attempt: whatever is still open of its request is closed. */
  stop(): void {
    clearInterval(this.timer)
    this.parent.removeEventListener('abort', this.forward)
    this.controller.abort()
  }

  private readonly forward = () => this.controller.abort()
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
