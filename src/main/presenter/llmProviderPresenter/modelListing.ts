import { z } from 'zod'
import {
  ModelConfigSchema,
  type ListedModel,
  type ModelConfig,
  type StoredProvider
} from '@shared/types/provider'
import { getJson, MAX_LIST_PAGES, parse, type ListRequestOptions } from './listingHttp'
import { listBedrockModels } from './bedrock'
import { listVertexModels } from './vertex'
import { knownModel } from './knownModels'
import type { RawModel } from './rawModel'

const OpenAiModels = z.object({ data: z.array(z.looseObject({ id: z.string() })) })
const AnthropicModels = z.object({
  data: z.array(z.looseObject({ id: z.string(), display_name: z.string().optional() })),
  has_more: z.boolean().optional(),
  last_id: z.string().nullable().optional()
})
const GeminiModels = z.object({
  models: z
    .array(
      z.looseObject({
        name: z.string(),
        displayName: z.string().optional(),
        inputTokenLimit: z.number().optional(),
        outputTokenLimit: z.number().optional(),
        supportedGenerationMethods: z.array(z.string()).optional()
      })
    )
    .default([]),
  nextPageToken: z.string().optional()
})
const OllamaTags = z.object({ models: z.array(z.looseObject({ name: z.string() })).default([]) })

export interface ListOptions extends ListRequestOptions {
  apiKey: string | undefined
  /** Amazon Bedrock's session token, for temporary credentials. */
  sessionToken?: string
}

/**
 * Whether the list holds the ids chat requests take. Azure lists models, but requests name
 * the user's deployments, so its models are typed in rather than fetched on add.
 */
export function listsRequestModelIds(kind: StoredProvider['kind']): boolean {
  return kind !== 'azure'
}

/** Asks the provider which models exist. Throws ProviderRequestError with a typed code. */
export async function fetchProviderModels(
  provider: Pick<StoredProvider, 'kind' | 'baseUrl' | 'settings'>,
  options: ListOptions
): Promise<RawModel[]> {
  const base = provider.baseUrl.replace(/\/+$/, '')
  const get = (url: string, headers: Record<string, string>) => getJson(url, headers, options)
  const key = options.apiKey ?? ''
  switch (provider.kind) {
    case 'openai':
    case 'openai-compatible':
    case 'groq':
    case 'mistral':
    case 'xai':
    case 'deepseek': {
      const body = parse(
        OpenAiModels,
        await get(`${base}/models`, key ? { authorization: `Bearer ${key}` } : {})
      )
      return body.data.map((m) => ({ id: m.id }))
    }
    case 'anthropic': {
      const models: RawModel[] = []
      let after: string | undefined
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const url = `${base}/models?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ''}`
        const body = parse(
          AnthropicModels,
          await get(url, { 'x-api-key': key, 'anthropic-version': '2023-06-01' })
        )
        models.push(...body.data.map((m) => ({ id: m.id, name: m.display_name })))
        if (!body.has_more || !body.last_id) break
        after = body.last_id
      }
      return models
    }
    case 'gemini': {
      const models: RawModel[] = []
      let token: string | undefined
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const url = `${base}/models?pageSize=1000${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`
        const body = parse(GeminiModels, await get(url, { 'x-goog-api-key': key }))
        for (const m of body.models) {
          if (m.supportedGenerationMethods && !m.supportedGenerationMethods.includes('generateContent'))
            continue
          models.push({
            id: m.name.replace(/^models\//, ''),
            name: m.displayName,
            contextLength: m.inputTokenLimit,
            maxOutputTokens: m.outputTokenLimit
          })
        }
        if (!body.nextPageToken) break
        token = body.nextPageToken
      }
      return models
    }
    case 'azure': {
      // The v1 API lists the resource's models (not its deployments): enough to check the key.
      const url = `${base.replace(/\/v1$/i, '')}/v1/models`
      const body = parse(OpenAiModels, await get(url, { 'api-key': key }))
      return body.data.map((m) => ({ id: m.id }))
    }
    case 'vertex':
      return listVertexModels(provider, key, options)
    case 'bedrock':
      return listBedrockModels(
        provider,
        { secretAccessKey: key, sessionToken: options.sessionToken },
        options
      )
    case 'ollama': {
      const body = parse(OllamaTags, await get(`${base}/api/tags`, {}))
      return body.models.map((m) => ({ id: m.name }))
    }
  }
}

/**
 * Listed models merged with what we know: the user's saved settings for a model win, then
 * our known-model table, then what the API said, then defaults.
 */
export function mergeModelMetadata(raw: RawModel[], configured: ModelConfig[]): ListedModel[] {
  const saved = new Map(configured.map((m) => [m.id, m]))
  const seen = new Set<string>()
  const result: ListedModel[] = []
  for (const model of raw) {
    if (seen.has(model.id)) continue
    seen.add(model.id)
    const mine = saved.get(model.id)
    if (mine) {
      result.push({ ...mine, known: true })
      continue
    }
    const known = knownModel(model.id)
    const merged = ModelConfigSchema.parse({
      ...known,
      id: model.id,
      name: model.name ?? known?.name ?? model.id,
      contextLength: model.contextLength ?? known?.contextLength,
      maxOutputTokens: model.maxOutputTokens ?? known?.maxOutputTokens,
      vision: model.vision ?? known?.vision
    })
    result.push({ ...merged, known: known !== undefined })
  }
  return result.sort((a, b) => a.id.localeCompare(b.id))
}
