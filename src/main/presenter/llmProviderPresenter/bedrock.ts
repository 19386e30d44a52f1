import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock'
import type { LanguageModel } from 'ai'
import { AwsV4Signer } from 'aws4fetch'
import { z } from 'zod'
import type { StoredProvider } from '@shared/types/provider'
import { getJson, MAX_LIST_PAGES, parse, type ListRequestOptions } from './listingHttp'
import type { RawModel } from './rawModel'

export const BEDROCK_DEFAULT_REGION = 'us-east-1'

export interface BedrockSecrets {
  secretAccessKey: string
  sessionToken?: string
}

/**
 * A Bedrock model: ConverseStream signed with SigV4 from the access key id (a setting), the
 * secret access key (the provider's key secret) and an optional session token (its own secret).
 * A URL on amazonaws.com means AWS's own endpoint for the region; any other (a VPC endpoint,
 * a gateway, the test server) is used as the base as it is.
 */
export function bedrockModel(
  provider: StoredProvider,
  modelId: string,
  secrets: BedrockSecrets,
  fetch: typeof globalThis.fetch
): LanguageModel {
  const baseURL = new URL(provider.baseUrl).hostname.endsWith('amazonaws.com')
    ? undefined
    : provider.baseUrl.replace(/\/+$/, '')
  return createAmazonBedrock({
    region: provider.settings.region ?? BEDROCK_DEFAULT_REGION,
    accessKeyId: provider.settings.accessKeyId ?? '',
    secretAccessKey: secrets.secretAccessKey,
    sessionToken: secrets.sessionToken,
    baseURL,
    fetch
  })(modelId)
}

const FoundationModels = z.object({
  modelSummaries: z
    .array(
      z.looseObject({
        modelId: z.string(),
        modelName: z.string().optional(),
        inputModalities: z.array(z.string()).optional(),
        inferenceTypesSupported: z.array(z.string()).optional(),
        modelLifecycle: z.looseObject({ status: z.string() }).optional()
      })
    )
    .default([])
})
const InferenceProfiles = z.object({
  inferenceProfileSummaries: z
    .array(
      z.looseObject({
        inferenceProfileId: z.string(),
        inferenceProfileName: z.string().optional(),
        status: z.string().optional(),
        models: z.array(z.looseObject({ modelArn: z.string() })).optional()
      })
    )
    .default([]),
  nextToken: z.string().nullish()
})

/**
 * The models a Bedrock account can call: foundation models that answer on demand with text,
 * then inference profiles (newer models are called only through one). Both lists come from
 * the control plane (bedrock.<region>, not bedrock-runtime), signed with SigV4.
 */
export async function listBedrockModels(
  provider: Pick<StoredProvider, 'baseUrl' | 'settings'>,
  secrets: BedrockSecrets,
  options: ListRequestOptions
): Promise<RawModel[]> {
  const region = provider.settings.region ?? BEDROCK_DEFAULT_REGION
  const base = new URL(provider.baseUrl).hostname.endsWith('amazonaws.com')
    ? `https://bedrock.${region}.amazonaws.com`
    : provider.baseUrl.replace(/\/+$/, '')
  const get = async (url: string) => {
    const signed = await new AwsV4Signer({
      url,
      method: 'GET',
      service: 'bedrock',
      region,
      accessKeyId: provider.settings.accessKeyId ?? '',
      secretAccessKey: secrets.secretAccessKey,
      sessionToken: secrets.sessionToken
    }).sign()
    return getJson(url, Object.fromEntries(signed.headers), options)
  }
  const foundation = parse(FoundationModels, await get(`${base}/foundation-models?byOutputModality=TEXT`))
  const takesImages = new Map(
    foundation.modelSummaries.map((m) => [m.modelId, m.inputModalities?.includes('IMAGE') ?? false])
  )
  const models: RawModel[] = foundation.modelSummaries
    .filter((m) => m.modelLifecycle?.status !== 'LEGACY')
    .filter((m) => m.inferenceTypesSupported?.includes('ON_DEMAND') ?? true)
    .map((m) => ({
      id: m.modelId,
      name: m.modelName,
      vision: takesImages.get(m.modelId)
    }))
  let next: string | undefined
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const url = `${base}/inference-profiles?maxResults=1000${next ? `&nextToken=${encodeURIComponent(next)}` : ''}`
    const body = parse(InferenceProfiles, await get(url))
    for (const profile of body.inferenceProfileSummaries) {
      if (profile.status && profile.status !== 'ACTIVE') continue
      // arn:aws:bedrock:<region>::foundation-model/<model id>
      const underlying = profile.models?.map((m) => m.modelArn.slice(m.modelArn.lastIndexOf('/') + 1))
      models.push({
        id: profile.inferenceProfileId,
        name: profile.inferenceProfileName,
        vision: underlying?.some((id) => takesImages.get(id)) || undefined
      })
    }
    if (!body.nextToken) break
    next = body.nextToken
  }
  return models
}
