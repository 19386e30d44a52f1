import { z } from 'zod'
import { requestJson, requireKey, type SearchAdapter } from './http'

const Answer = z.object({
  results: z.array(
    z.looseObject({ title: z.string().default(''), url: z.string(), content: z.string().default('') })
  )
})

/** Tavily: `POST /search` with a bearer key; `results[].{title,url,content}`. */
export const tavily: SearchAdapter = {
  label: 'Tavily',
  defaultEndpoint: 'https://api.tavily.com',
  async search(request) {
    const key = requireKey(this.label, request)
    const body = await requestJson(
      this.label,
      request,
      `${request.endpoint}/search`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: request.query, max_results: request.count, search_depth: 'basic' })
      },
      Answer
    )
    return body.results.map((r) => ({ title: r.title, url: r.url, snippet: r.content }))
  }
}
