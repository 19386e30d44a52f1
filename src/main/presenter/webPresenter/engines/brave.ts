import { z } from 'zod'
import { requestJson, requireKey, type SearchAdapter } from './http'

const Answer = z.object({
  web: z
    .object({
      results: z.array(
        z.looseObject({ title: z.string().default(''), url: z.string(), description: z.string().default('') })
      )
    })
    .optional()
})

/** Brave Search: `GET /res/v1/web/search?q=&count=` with `X-Subscription-Token`; `web.results[]`. */
export const brave: SearchAdapter = {
  label: 'Brave Search',
  defaultEndpoint: 'https://api.search.brave.com',
  async search(request) {
    const key = requireKey(this.label, request)
    const url = new URL(`${request.endpoint}/res/v1/web/search`)
    url.searchParams.set('q', request.query)
    url.searchParams.set('count', String(request.count))
    const body = await requestJson(
      this.label,
      request,
      url.href,
      { headers: { accept: 'application/json', 'x-subscription-token': key } },
      Answer
    )
    // Brave marks the query's words in snippets with <strong>.
    return (body.web?.results ?? []).map((r) => ({ title: r.title, url: r.url, snippet: r.description }))
  }
}
