import type { z } from 'zod'
import { classifyError, classifyHttpStatus, ProviderRequestError } from './errors'

/** A cap on the pages of one model list, against a server that pages forever. */
export const MAX_LIST_PAGES = 20

/** What a model-list request may be given: a caller's abort signal and, in tests, a fetch. */
export interface ListRequestOptions {
  signal?: AbortSignal
  fetch?: typeof fetch
}

const REQUEST_TIMEOUT_MS = 15_000

/** The caller's signal, or the request's own timeout, whichever ends first. */
export function requestSignal(options: ListRequestOptions): AbortSignal {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS)
  return options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
}

/** A deadline that passed is a server that did not answer; any other abort is the caller's. */
function abortedError(signal: AbortSignal): ProviderRequestError {
  const reason = signal.reason as { name?: string } | undefined
  if (reason?.name === 'TimeoutError')
    return new ProviderRequestError({
      code: 'network',
      category: 'timeout',
      message: 'The provider did not answer in time'
    })
  return new ProviderRequestError(classifyError(signal.reason))
}

/**
 * `work` unless the request's signal ends first (for a step such as a token exchange whose
 * library takes no signal): a server that never answers cannot hold the caller.
 */
export function beforeDeadline<T>(work: Promise<T>, options: ListRequestOptions): Promise<T> {
  const signal = requestSignal(options)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError(signal))
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/** GETs a model list as JSON. Throws ProviderRequestError with a typed code. */
export async function getJson(
  url: string,
  headers: Record<string, string>,
  options: ListRequestOptions
): Promise<unknown> {
  const signal = requestSignal(options)
  let response: Response
  try {
    response = await (options.fetch ?? fetch)(url, {
      headers: { accept: 'application/json', ...headers },
      signal
    })
  } catch (error) {
    throw signal.aborted ? abortedError(signal) : new ProviderRequestError(classifyError(error))
  }
  const text = await response.text().catch(() => '')
  if (!response.ok) {
    throw new ProviderRequestError(
      classifyHttpStatus(response.status, text, Object.fromEntries(response.headers))
    )
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new ProviderRequestError({ code: 'invalid_response', message: 'The model list is not JSON' })
  }
}

export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    throw new ProviderRequestError({
      code: 'invalid_response',
      message: `Unexpected model list shape: ${parsed.error.issues[0]?.message}`
    })
  }
  return parsed.data
}
