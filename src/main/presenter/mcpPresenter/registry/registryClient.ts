import { AppError } from '@shared/errors'
import type { McpRegistryRefusal, McpRegistryServer } from '@shared/types/mcpRegistry'
import { describeConnectionError } from '../../../platform/systemErrorWords'
import { readServer, readServerList, RegistryDataRefused, type ReadOptions } from './serverJson'

/** A registry answer larger than this is refused unread (a page of 100 servers is ~300 KB). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024
const TIMEOUT_MS = 15_000
/** Items read from one page, whatever the registry sends. */
export const MAX_PAGE_ITEMS = 100

export interface RegistryListing {
  servers: McpRegistryServer[]
  refused: McpRegistryRefusal[]
  nextCursor?: string
}

/** The registry could not be reached (network, timeout, a 5xx): the cache may answer instead. */
export class RegistryUnreachable extends AppError {
  constructor(message: string) {
    super('mcp_registry_unreachable', message)
  }
}

/**
 * Talks to a registry speaking the MCP Registry API through the app's fetch (its proxy):
 * `GET /v0.1/servers?search=&limit=&cursor=`, falling back to `/v0/servers` for registries
 * that only have the first version, and `…/servers/{name}/versions/{version}` for one server.
 */
export class RegistryClient {
  /** Registries (by base URL) that answered 404 for /v0.1 and are asked at /v0. */
  private readonly legacy = new Set<string>()

  constructor(private readonly deps: { fetch: typeof globalThis.fetch; readOptions: () => ReadOptions }) {}

  async list(
    baseUrl: string,
    query: { search?: string; cursor?: string; limit: number }
  ): Promise<RegistryListing> {
    const params = new URLSearchParams({ limit: String(query.limit) })
    if (query.search) params.set('search', query.search)
    if (query.cursor) params.set('cursor', query.cursor)
    const body = await this.get(baseUrl, `servers?${params}`)
    try {
      return readServerList(body, this.deps.readOptions(), Math.min(query.limit, MAX_PAGE_ITEMS))
    } catch (error) {
      if (error instanceof RegistryDataRefused) throw badAnswer(baseUrl, error.message)
      throw error
    }
  }

  async detail(baseUrl: string, name: string, version: string): Promise<McpRegistryServer> {
    const body = await this.get(
      baseUrl,
      `servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`
    )
    const read = readServer(body, this.deps.readOptions())
    if ('refused' in read) throw badAnswer(baseUrl, `${read.refused.what}: ${read.refused.reason}`)
    if (read.server.name !== name || read.server.version !== version)
      throw badAnswer(baseUrl, `asked for ${name} ${version}, got ${read.server.name} ${read.server.version}`)
    return read.server
  }

  private async get(baseUrl: string, path: string): Promise<unknown> {
    const root = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`
    if (!this.legacy.has(baseUrl)) {
      const response = await this.request(new URL(`v0.1/${path}`, root))
      if (response.status !== 404) return this.json(baseUrl, response)
      await response.body?.cancel()
      // A registry with only the first API version (or a 404 for the server asked for).
      const legacy = await this.request(new URL(`v0/${path}`, root))
      if (legacy.status !== 404) this.legacy.add(baseUrl)
      return this.json(baseUrl, legacy)
    }
    return this.json(baseUrl, await this.request(new URL(`v0/${path}`, root)))
  }

  private async request(url: URL): Promise<Response> {
    try {
      return await this.deps.fetch(url, {
        headers: { accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS)
      })
    } catch (error) {
      const why =
        error instanceof Error && error.name === 'TimeoutError'
          ? `it did not answer within ${TIMEOUT_MS / 1000} s`
          : (describeConnectionError(error, { url: url.href, localServerName: 'the registry' }) ??
            (error instanceof Error ? error.message : String(error)))
      throw new RegistryUnreachable(`The MCP registry at ${url.origin} could not be reached: ${why}`)
    }
  }

  private async json(baseUrl: string, response: Response): Promise<unknown> {
    if (response.status >= 500)
      throw new RegistryUnreachable(`The MCP registry at ${baseUrl} answered ${response.status}`)
    if (!response.ok) {
      await response.body?.cancel()
      if (response.status === 404)
        throw new AppError('mcp_registry_not_found', `Not found in the MCP registry at ${baseUrl}`)
      throw badAnswer(baseUrl, `HTTP ${response.status}`)
    }
    const declared = Number(response.headers.get('content-length'))
    if (declared > MAX_ANSWER_BYTES) {
      await response.body?.cancel()
      throw badAnswer(baseUrl, `its answer is ${declared} bytes (at most ${MAX_ANSWER_BYTES})`)
    }
    const text = await readCapped(response, MAX_ANSWER_BYTES, baseUrl)
    try {
      return JSON.parse(text)
    } catch {
      throw badAnswer(baseUrl, 'its answer is not JSON')
    }
  }
}

function badAnswer(baseUrl: string, why: string): AppError {
  return new AppError(
    'mcp_registry_bad_answer',
    `The MCP registry at ${baseUrl} sent an answer the app refuses: ${why}`
  )
}

async function readCapped(response: Response, maxBytes: number, baseUrl: string): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>
    try {
      next = await reader.read()
    } catch (error) {
      throw new RegistryUnreachable(
        `The MCP registry at ${baseUrl} stopped sending: ${error instanceof Error ? error.message : String(error)}`
      )
    }
    if (next.done) break
    size += next.value.byteLength
    if (size > maxBytes) {
      await reader.cancel()
      throw badAnswer(baseUrl, `its answer is over ${maxBytes} bytes`)
    }
    chunks.push(next.value)
  }
  return Buffer.concat(chunks).toString('utf8')
}
