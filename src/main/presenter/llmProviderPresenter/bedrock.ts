import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock'
import type { LanguageModel } from 'ai'
import type { StoredProvider } from '@shared/types/provider'

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
