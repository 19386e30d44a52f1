import {
  APICallError,
  InvalidPromptError,
  InvalidResponseDataError,
  JSONParseError,
  TypeValidationError
} from 'ai'
import type { LLMErrorCode, ProviderErrorCategory } from '@shared/types/llm'
import { describeConnectionError } from '../../platform/systemErrorWords'
import { proxyErrorIn } from '../networkPresenter/proxyError'

/** A provider failure reduced to what the chat loop and the UI need. */
export interface ClassifiedError {
  code: LLMErrorCode
  message: string
  status?: number
  retryAfterMs?: number
  /** Set where the code alone does not say it (overload, timeout); else see `categoryOf`. */
  category?: ProviderErrorCategory
}

/** Errors from model listing and key checks (plain fetch, outside the AI SDK). */
export class ProviderRequestError extends Error {
  constructor(readonly classified: ClassifiedError) {
    super(classified.message)
    this.name = 'ProviderRequestError'
  }
}

export function isRetryable(code: LLMErrorCode): boolean {
  return code === 'rate_limit' || code === 'server'
}

const CATEGORY_OF_CODE: Record<Exclude<LLMErrorCode, 'aborted'>, ProviderErrorCategory> = {
  auth: 'auth',
  rate_limit: 'rate_limited',
  context_overflow: 'context_too_long',
  server: 'server',
  network: 'network',
  // A response we could not read is the provider's fault, like a 5xx.
  invalid_response: 'server',
  invalid_request: 'bad_request'
}

/** What the user is told went wrong; undefined for an abort (that is the user's Stop). */
export function categoryOf(error: ClassifiedError): ProviderErrorCategory | undefined {
  if (error.code === 'aborted') return undefined
  return error.category ?? CATEGORY_OF_CODE[error.code]
}

// Provider bodies are the only place a context overflow is described; each vendor words it
// differently, so this is matched here, at the wire boundary, and nowhere else.
const CONTEXT_OVERFLOW =
  /context[_ ]length|context window|maximum context|prompt is too long|too many tokens|exceeds? the (?:maximum|model)|input token count/i

export function classifyHttpStatus(
  status: number,
  body: string,
  headers?: Record<string, string>
): ClassifiedError {
  const message = extractMessage(body) ?? `HTTP ${status}`
  if (status === 401 || status === 403) return { code: 'auth', message, status }
  const retryAfterMs = parseRetryAfter(headers)
  if (status === 429) return { code: 'rate_limit', message, status, retryAfterMs }
  if (status === 408) return { code: 'server', message, status, retryAfterMs, category: 'timeout' }
  // 503 and Anthropic's 529 say "busy, come back": overload, not a fault.
  if (status === 503 || status === 529)
    return { code: 'server', message, status, retryAfterMs, category: 'overloaded' }
  if (status === 504) return { code: 'server', message, status, retryAfterMs, category: 'timeout' }
  if (status >= 500) return { code: 'server', message, status, retryAfterMs }
  if (CONTEXT_OVERFLOW.test(body)) return { code: 'context_overflow', message, status }
  if (status === 413) return { code: 'context_overflow', message, status }
  return { code: 'invalid_request', message, status }
}

/** Maps anything the AI SDK or fetch can throw or report to a typed code. */
export function classifyError(error: unknown): ClassifiedError {
  if (isAbort(error)) return { code: 'aborted', message: 'The request was aborted' }
  if (APICallError.isInstance(error)) {
    // A 2xx APICallError means the body broke while being read: judge it by its cause.
    if (error.statusCode !== undefined && error.statusCode < 300) {
      if (isNetworkError(error.cause)) return networkFailure(error.cause)
      return {
        code: 'invalid_response',
        message: `The provider sent a response we could not read: ${firstLine(error.message)}`
      }
    }
    if (error.statusCode !== undefined) {
      return classifyHttpStatus(
        error.statusCode,
        error.responseBody ?? error.message,
        lowerKeys(error.responseHeaders)
      )
    }
    return networkFailure(error.cause ?? error)
  }
  if (
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    InvalidResponseDataError.isInstance(error)
  ) {
    return {
      code: 'invalid_response',
      message: `The provider sent a response we could not read: ${firstLine(error.message)}`
    }
  }
  if (InvalidPromptError.isInstance(error))
    return { code: 'invalid_request', message: firstLine(error.message) }
  if (error instanceof ProviderRequestError) return error.classified
  if (isNetworkError(error)) return networkFailure(error)
  const inStream = classifyStreamErrorObject(error)
  if (inStream) return inStream
  const text = error instanceof Error ? error.message : String(error)
  return { code: 'invalid_response', message: firstLine(text) }
}

export function isAbort(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  return (
    error.name === 'AbortError' ||
    error.name === 'TimeoutError' ||
    isAbort((error as { cause?: unknown }).cause)
  )
}

/**
 * Errors a provider sends inside a 200 stream arrive as plain objects, e.g. Anthropic
 * `{type: 'overloaded_error', message}` or OpenAI `{message, type: 'server_error'}`.
 */
function classifyStreamErrorObject(error: unknown): ClassifiedError | undefined {
  if (!error || typeof error !== 'object' || error instanceof Error) return undefined
  const record = error as { type?: unknown; code?: unknown; message?: unknown; error?: unknown }
  if (record.error && typeof record.error === 'object') return classifyStreamErrorObject(record.error)
  const kind = [record.type, record.code].filter((v) => typeof v === 'string').join(' ')
  const message =
    typeof record.message === 'string' ? record.message : kind || 'The provider reported an error'
  if (/overloaded|unavailable/i.test(kind)) return { code: 'server', message, category: 'overloaded' }
  if (/api_error|server_error|internal/i.test(kind)) return { code: 'server', message }
  if (/rate_limit|resource_exhausted/i.test(kind)) return { code: 'rate_limit', message }
  if (/authentication|permission|invalid_api_key|unauthenticated/i.test(kind))
    return { code: 'auth', message }
  if (CONTEXT_OVERFLOW.test(message)) return { code: 'context_overflow', message }
  return { code: 'invalid_response', message }
}

function networkFailure(error: unknown): ClassifiedError {
  const atProxy = proxyErrorIn(error)
  if (atProxy) return { code: 'network', message: atProxy.message }
  const timedOut = hasErrorCode(error, /TIMEDOUT|TIMEOUT/)
  return { code: 'network', message: networkMessage(error), ...(timedOut ? { category: 'timeout' } : {}) }
}

function hasErrorCode(error: unknown, pattern: RegExp, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && pattern.test(code)) return true
  return hasErrorCode((error as { cause?: unknown }).cause, pattern, depth + 1)
}

function isNetworkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_\w+)$/.test(code)) return true
  if (error instanceof TypeError && /fetch failed|terminated|network|socket/i.test(error.message)) return true
  return isNetworkError((error as { cause?: unknown }).cause)
}

function networkMessage(error: unknown): string {
  const plain = describeConnectionError(error)
  if (plain) return plain
  const parts: string[] = []
  let current: unknown = error
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code
    parts.push(typeof code === 'string' ? `${current.message} (${code})` : current.message)
    current = (current as { cause?: unknown }).cause
  }
  return `Network error: ${parts.join(': ') || String(error)}`
}

function extractMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown }
    if (typeof parsed.error === 'string') return parsed.error
    if (typeof parsed.error?.message === 'string') return parsed.error.message
    if (typeof parsed.message === 'string') return parsed.message
  } catch {
    // not JSON: fall through to the raw text
  }
  const trimmed = body.trim()
  return trimmed ? firstLine(trimmed).slice(0, 500) : undefined
}

/** `retry-after-ms` (OpenAI), `retry-after` in seconds or as an HTTP date. */
export function parseRetryAfter(headers: Record<string, string> | undefined): number | undefined {
  if (!headers) return undefined
  const ms = Number(headers['retry-after-ms'])
  if (headers['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return ms
  const value = headers['retry-after']
  if (value === undefined) return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}

function lowerKeys(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return undefined
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
}

function firstLine(text: string): string {
  return text.split('\n')[0].slice(0, 500)
}
