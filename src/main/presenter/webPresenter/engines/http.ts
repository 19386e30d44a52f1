import type { z } from 'zod'
import { AppError } from '@shared/errors'

/** What an engine adapter is given for one search. */
export interface EngineRequest {
  query: string
  count: number
  /** The user's key for this engine (absent for a keyless SearXNG). */
  key: string | undefined
  /** The API's base URL (the vendor's, or the user's gateway / SearXNG server), no trailing slash. */
  endpoint: string
  fetch: typeof globalThis.fetch
  signal: AbortSignal
}

/** A result as the engine gave it, before links are checked and numbered. */
export interface RawResult {
  title: string
  url: string
  snippet: string
}

export interface SearchAdapter {
  label: string
  defaultEndpoint: string
  search(request: EngineRequest): Promise<RawResult[]>
}

/** An answer larger than this is not a search result page. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024

/** Sends one API request and reads its JSON with `schema`; failures are AppErrors that say which engine and why. */
export async function requestJson<S extends z.ZodType>(
  label: string,
  request: EngineRequest,
  url: string,
  init: RequestInit,
  schema: S
): Promise<z.output<S>> {
  let response: Response
  try {
    response = await request.fetch(url, { ...init, signal: request.signal, redirect: 'error' })
  } catch (error) {
    if (request.signal.aborted) throw error
    const message = error instanceof Error ? error.message : String(error)
    throw new AppError('web_search_unreachable', `${label} could not be reached: ${message}`)
  }
  const declared = Number(response.headers.get('content-length'))
  if (declared > MAX_ANSWER_BYTES) {
    await response.body?.cancel()
    throw new AppError('web_search_failed', `${label} sent an answer too large to be search results`)
  }
  const text = await response.text()
  if (text.length > MAX_ANSWER_BYTES)
    throw new AppError('web_search_failed', `${label} sent an answer too large to be search results`)
  if (response.status === 401 || response.status === 403)
    throw new AppError(
      'web_search_auth',
      `${label} refused the API key (HTTP ${response.status}). Check it in Settings › Web search.`
    )
  if (response.status === 429)
    throw new AppError(
      'web_search_rate_limited',
      `${label} says too many searches (HTTP 429); try again later.`
    )
  if (!response.ok)
    throw new AppError(
      'web_search_failed',
      `${label} answered HTTP ${response.status}: ${text.slice(0, 200)}`
    )
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new AppError('web_search_failed', `${label} sent an answer that is not JSON`)
  }
  const parsed = schema.safeParse(body)
  if (!parsed.success)
    throw new AppError(
      'web_search_failed',
      `${label} sent results in an unexpected shape: ${parsed.error.issues[0]?.message ?? ''}`
    )
  return parsed.data
}

/** A key the engine needs; a clear error when none is stored. */
export function requireKey(label: string, request: EngineRequest): string {
  if (!request.key)
    throw new AppError('web_search_no_key', `No API key for ${label}: add one in Settings › Web search.`)
  return request.key
}
