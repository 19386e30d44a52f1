import { z } from 'zod'
import { requestJson, requireKey, type SearchAdapter } from './http'

const Answer = z.object({
  organic_results: z
    .array(
      z.looseObject({ title: z.string().default(''), link: z.string(), snippet: z.string().default('') })
    )
    .default([])
})

/** SerpAPI (Google results): `GET /search.json?engine=google&q=&num=&api_key=`; `organic_results[]`. */
export const serpapi: SearchAdapter = {
  label: 'SerpAPI',
  defaultEndpoint: 'https://serpapi.com',
  async search(request) {
    const key = requireKey(this.label, request)
    const url = new URL(`${request.endpoint}/search.json`)
    url.searchParams.set('engine', 'google')
    url.searchParams.set('q', request.query)
    url.searchParams.set('num', String(request.count))
    url.searchParams.set('api_key', key)
    const body = await requestJson(
      this.label,
      request,
      url.href,
      { headers: { accept: 'application/json' } },
      Answer
    )
    return body.organic_results.map((r) => ({ title: r.title, url: r.link, snippet: r.snippet }))
  }
}
