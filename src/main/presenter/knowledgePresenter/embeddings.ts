import { AppError } from '@shared/errors'
import type { EmbeddingProviderKind } from '@shared/types/knowledge'

/** Where and how one base's texts are embedded: the provider's wire format, address, key and model. */
export interface EmbeddingTarget {
  kind: EmbeddingProviderKind
  providerName: string
  baseUrl: string
  apiKey: string | undefined
  modelId: string
}

export interface EmbedOptions {
  fetch: typeof globalThis.fetch
  signal?: AbortSignal
  /** Waits before a retry (tests pass a short one). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  /** Retries of 429, 5xx and unreachable (default 5; a search's query: 1, someone is waiting). */
  maxRetries?: number
  timeoutMs?: number
}

/** Texts per request: what each API accepts in one call (Gemini: at most 100). */
export const BATCH_SIZE: Record<EmbeddingProviderKind, number> = {
  openai: 64,
  'openai-compatible': 64,
  mistral: 64,
  gemini: 100,
  ollama: 32
}
const MAX_RETRIES = 5
const REQUEST_TIMEOUT_MS = 120_000

/**
 * An embedding request's failure: `batch` when these inputs were refused (too long, malformed:
 * the files they came from fail, the run goes on), `run` when the provider cannot embed at all
 * (key, model, network: the run stops and says why).
 */
export class EmbeddingError extends AppError {
  constructor(
    code: string,
    message: string,
    readonly scope: 'batch' | 'run'
  ) {
    super(code, message)
  }
}

/**
 * Embeds texts in one request: OpenAI and OpenAI-compatible (`/embeddings`), Gemini
 * (`:batchEmbedContents`), Ollama (`/api/embed`). Retries 429 and 5xx with back-off (Retry-After
 * when given); aborts with `signal`. The key goes in the request only, never in a message.
 */
export async function embedTexts(
  target: EmbeddingTarget,
  texts: string[],
  options: EmbedOptions
): Promise<Float32Array[]> {
  if (texts.length === 0) return []
  const request = wireRequest(target, texts)
  const sleep = options.sleep ?? abortableSleep
  const maxRetries = options.maxRetries ?? MAX_RETRIES
  for (let attempt = 0; ; attempt++) {
    const timeout = AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS)
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
    let response: Response
    try {
      response = await options.fetch(request.url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        signal
      })
    } catch (error) {
      if (options.signal?.aborted) throw error
      if (attempt < maxRetries && !timeout.aborted) {
        await sleep(backoff(attempt), options.signal)
        continue
      }
      throw new EmbeddingError(
        'embedding_unreachable',
        `${target.providerName} could not be reached for embeddings: ${describe(error)}`,
        'run'
      )
    }
    if (response.ok) return parseVectors(target, await response.json().catch(() => null), texts.length)
    const detail = await errorDetail(response)
    if ((response.status === 429 || response.status >= 500) && attempt < maxRetries) {
      await sleep(retryAfter(response) ?? backoff(attempt), options.signal)
      continue
    }
    throw statusError(target, response.status, detail)
  }
}

function wireRequest(
  target: EmbeddingTarget,
  texts: string[]
): { url: string; headers: Record<string, string>; body: string } {
  const base = target.baseUrl.replace(/\/+$/, '')
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  switch (target.kind) {
    case 'gemini': {
      if (target.apiKey) headers['x-goog-api-key'] = target.apiKey
      const model = target.modelId.replace(/^models\//, '')
      return {
        url: `${base}/models/${encodeURIComponent(model)}:batchEmbedContents`,
        headers,
        body: JSON.stringify({
          requests: texts.map((text) => ({ model: `models/${model}`, content: { parts: [{ text }] } }))
        })
      }
    }
    case 'ollama':
      if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`
      return {
        url: `${base.replace(/\/v1$/, '')}/api/embed`,
        headers,
        body: JSON.stringify({ model: target.modelId, input: texts })
      }
    default:
      if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`
      return {
        url: `${base}/embeddings`,
        headers,
        body: JSON.stringify({ model: target.modelId, input: texts, encoding_format: 'float' })
      }
  }
}

/** The vectors in input order; anything else than one finite vector per input is an error. */
function parseVectors(target: EmbeddingTarget, body: unknown, count: number): Float32Array[] {
  let raw: unknown[] | undefined
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>
    if (target.kind === 'gemini' && Array.isArray(b.embeddings))
      raw = b.embeddings.map((e) => (e as { values?: unknown })?.values)
    else if (target.kind === 'ollama' && Array.isArray(b.embeddings)) raw = b.embeddings
    else if (Array.isArray(b.data)) {
      const items = [...b.data] as { index?: number; embedding?: unknown }[]
      items.sort((x, y) => (x.index ?? 0) - (y.index ?? 0))
      raw = items.map((item) => item?.embedding)
    }
  }
  if (!raw || raw.length !== count)
    throw new EmbeddingError(
      'embedding_bad_response',
      `${target.providerName} answered ${raw ? raw.length : 'no'} embeddings for ${count} texts (model ${target.modelId})`,
      'run'
    )
  const vectors = raw.map((v) => (Array.isArray(v) ? Float32Array.from(v as number[]) : null))
  const dims = vectors[0]?.length ?? 0
  if (!dims || vectors.some((v) => !v || v.length !== dims || v.some((x) => !Number.isFinite(x))))
    throw new EmbeddingError(
      'embedding_bad_response',
      `${target.providerName} answered malformed embeddings (model ${target.modelId})`,
      'run'
    )
  return vectors as Float32Array[]
}

function statusError(target: EmbeddingTarget, status: number, detail: string): EmbeddingError {
  const who = `${target.providerName} (${target.modelId})`
  if (status === 401 || status === 403)
    return new EmbeddingError('embedding_auth', `${who} refused the API key (HTTP ${status})${detail}`, 'run')
  if (status === 404)
    return new EmbeddingError(
      'embedding_model_not_found',
      `${who}: the model or endpoint was not found (HTTP 404)${detail}`,
      'run'
    )
  if (status === 429)
    return new EmbeddingError(
      'embedding_rate_limited',
      `${who} kept refusing: rate limited (HTTP 429)`,
      'run'
    )
  if (status === 400 || status === 413 || status === 422)
    return new EmbeddingError(
      'embedding_failed',
      `${who} refused these texts (HTTP ${status})${detail}`,
      'batch'
    )
  return new EmbeddingError('embedding_failed', `${who} failed (HTTP ${status})${detail}`, 'run')
}

/** A short reason from the error body (never the request, which carried the key). */
async function errorDetail(response: Response): Promise<string> {
  const text = await response.text().catch(() => '')
  let message: string
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown }
    const raw = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message)
    message = typeof raw === 'string' ? raw : ''
  } catch {
    message = text
  }
  message = message.replace(/\s+/g, ' ').trim().slice(0, 300)
  return message ? `: ${message}` : ''
}

function retryAfter(response: Response): number | undefined {
  const header = response.headers.get('retry-after')
  if (!header) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.min(Math.max(seconds, 0) * 1000, 60_000)
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.min(Math.max(date - Date.now(), 0), 60_000)
}

function backoff(attempt: number): number {
  return Math.min(500 * 2 ** attempt, 20_000)
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
