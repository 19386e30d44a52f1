import { z } from 'zod'
import { requestJson, requireKey, type SearchAdapter } from './http'

const Answer = z.object({
  results: z.array(
    z.looseObject({
      title: z.string().nullish(),
      url: z.string(),
      text: z.string().nullish(),
      summary: z.string().nullish()
    })
  )
})

/** Exa: `POST /search` with `x-api-key`, text contents asked for; `results[].{title,url,text}`. */
export const exa: SearchAdapter = {
  label: 'Exa',
  defaultEndpoint: 'https://api.exa.ai',
  async search(request) {
    const key = requireKey(this.label, request)
    const body = await requestJson(
      this.label,
      request,
      `${request.endpoint}/search`,
      {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({
          query: request.query,
          numResults: request.count,
          type: 'auto',
          contents: { text: { maxCharacters: 1000 } }
        })
      },
      Answer
    )
    return body.results.map((r) => ({ title: r.title ?? '', url: r.url, snippet: r.summary ?? r.text ?? '' }))
  }
}
