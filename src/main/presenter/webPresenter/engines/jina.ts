import { z } from 'zod'
import { requestJson, requireKey, type SearchAdapter } from './http'

const Answer = z.object({
  data: z
    .array(
      z.looseObject({
        title: z.string().default(''),
        url: z.string(),
        description: z.string().default(''),
        content: z.string().default('')
      })
    )
    .default([])
})

/** Jina Search: `GET /?q=` with a bearer key and `Accept: application/json`; `data[]`. */
export const jina: SearchAdapter = {
  label: 'Jina Search',
  defaultEndpoint: 'https://s.jina.ai',
  async search(request) {
    const key = requireKey(this.label, request)
    const url = new URL(`${request.endpoint}/`)
    url.searchParams.set('q', request.query)
    const body = await requestJson(
      this.label,
      request,
      url.href,
      // Titles and descriptions only: the pages themselves are web_fetch's job.
      {
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${key}`,
          'x-respond-with': 'no-content'
        }
      },
      Answer
    )
    // Jina takes no count: numberedSources keeps the first `count` usable ones.
    return body.data.map((r) => ({
      title: r.title,
      url: r.url,
      snippet: r.description || r.content.slice(0, 500)
    }))
  }
}
