import { z } from 'zod'
import { AppError } from '@shared/errors'
import { requestJson, type SearchAdapter } from './http'

const Answer = z.object({
  results: z.array(
    z.looseObject({ title: z.string().default(''), url: z.string(), content: z.string().default('') })
  )
})

/**
 * A SearXNG server (usually the user's own): `GET /search?q=&format=json` (the server must have
 * the json format enabled); `results[]`. A key, when set, goes as a bearer token for servers
 * behind an authenticating proxy.
 */
export const searxng: SearchAdapter = {
  label: 'SearXNG',
  defaultEndpoint: '',
  async search(request) {
    if (!request.endpoint)
      throw new AppError(
        'web_search_no_endpoint',
        'Set the address of your SearXNG server in Settings › Web search.'
      )
    const url = new URL(`${request.endpoint}/search`)
    url.searchParams.set('q', request.query)
    url.searchParams.set('format', 'json')
    const headers: Record<string, string> = { accept: 'application/json' }
    if (request.key) headers.authorization = `Bearer ${request.key}`
    const body = await requestJson(this.label, request, url.href, { headers }, Answer)
    return body.results.map((r) => ({ title: r.title, url: r.url, snippet: r.content }))
  }
}
