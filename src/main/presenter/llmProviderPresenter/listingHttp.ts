import type { z } from 'zod'
import { classifyError, classifyHttpStatus, ProviderRequestError } from './errors'

/** What a model-list request may be given: a caller's abort signal and, in tests, a fetch. */
export interface ListRequestOptions {
  signal?: AbortSignal
  fetch?: typeof fetch
}

/** GETs a model list as JSON. Throws ProviderRequestError with a typed code. */
export async function getJson(
  url: string,
  headers: Record<string, string>,
  options: ListRequestOptions
): Promise<unknown> {
  const signal = options.signal
    ? AbortSignal.any([options.signal, AbortSignal.timeout(15_000)])
    : AbortSignal.timeout(15_000)
  let response: Response
  try {
    response = await (options.fetch ?? fetch)(url, {
      headers: { accept: 'application/json', ...headers },
      signal
    })
  } catch (error) {
    throw new ProviderRequestError(classifyError(error))
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
