import type { LanguageModel } from 'ai'
import { createOpenAI } from '@ai-sdk/openai'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAICompatible, type MetadataExtractor } from '@ai-sdk/openai-compatible'
import { createGroq } from '@ai-sdk/groq'
import { createMistral } from '@ai-sdk/mistral'
import { createXai } from '@ai-sdk/xai'
import { createDeepSeek } from '@ai-sdk/deepseek'
import { createAzure } from '@ai-sdk/azure'
import type { LLMRequestOptions, ProviderOptions } from '@shared/types/llm'
import type { ModelConfig, StoredProvider } from '@shared/types/provider'
import { coalescingFetch, wireFormatOf } from './sseCoalescer'
import { vertexModel } from './vertex'
import { bedrockModel } from './bedrock'
import {
  openAiResponsesModel,
  openRouterCitations,
  openRouterOnlineModel,
  type NativeSearchKind
} from './nativeSearch'

// The SDK prints compatibility warnings to the console on every call; they are for
// developers of the SDK integration, not users of the app.
;(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false

/** The name under which openai-compatible providers report provider metadata. */
export const COMPATIBLE_PROVIDER_NAME = 'compatible'

/** Builds the AI SDK model for one provider config. `apiKey` may be empty for local servers. */
export function createLanguageModel(
  provider: StoredProvider,
  modelId: string,
  apiKey: string | undefined,
  /** Amazon Bedrock's optional session token. */
  sessionToken?: string,
  /** The app's network door (its proxy); plain fetch when absent. */
  baseFetch: typeof globalThis.fetch = globalThis.fetch,
  /** The provider's own web search is on (see nativeSearch.ts): OpenAI on Responses, OpenRouter `:online`. */
  nativeSearch: NativeSearchKind | null = null
): LanguageModel {
  const baseURL = provider.baseUrl.replace(/\/+$/, '')
  // Local servers accept any key, but the SDKs insist on one being present.
  const key = apiKey || 'not-needed'
  const fetch = coalescingFetch(wireFormatOf(provider.kind), baseFetch)
  switch (provider.kind) {
    case 'openai':
      // Web search is a Responses API tool; otherwise chat completions (.chat()).
      if (nativeSearch === 'openai') return openAiResponsesModel(baseURL, key, modelId, fetch)
      return createOpenAI({ baseURL, apiKey: key, fetch }).chat(modelId)
    case 'anthropic':
      return createAnthropic({ baseURL, apiKey: key, fetch })(modelId)
    case 'gemini':
      return createGoogleGenerativeAI({ baseURL, apiKey: key, fetch })(modelId)
    case 'ollama':
      return compatible(`${baseURL}/v1`, apiKey, fetch)(modelId)
    case 'openai-compatible':
      if (nativeSearch === 'openrouter')
        return compatible(baseURL, apiKey, fetch, openRouterCitations)(openRouterOnlineModel(modelId))
      return compatible(baseURL, apiKey, fetch)(modelId)
    // Vendors with an AI SDK package of their own: it knows their quirks (reasoning fields,
    // tool-call shapes, error bodies) better than the generic compatible client.
    case 'groq':
      return createGroq({ baseURL, apiKey: key, fetch })(modelId)
    case 'mistral':
      return createMistral({ baseURL, apiKey: key, fetch })(modelId)
    case 'xai':
      return createXai({ baseURL, apiKey: key, fetch }).chat(modelId)
    case 'deepseek':
      return createDeepSeek({ baseURL, apiKey: key, fetch })(modelId)
    case 'azure':
      return azureModel(provider, modelId, key, fetch)
    case 'vertex':
      return vertexModel(provider, modelId, key, fetch)
    case 'bedrock':
      // Bedrock streams AWS event-stream frames, not SSE: nothing for the coalescer to merge.
      return bedrockModel(provider, modelId, { secretAccessKey: apiKey ?? '', sessionToken }, baseFetch)
  }
}

/** api-version for the older deployment URLs (the v1 URLs need none). */
export const AZURE_DEFAULT_API_VERSION = '2024-10-21'

/**
 * The model id is the deployment name; `.chat()` is chat completions (the default would be
 * Responses). The SDK picks URLs by host name; passing `…/openai/v1` (or asking for deployment
 * URLs) gives the same paths on Azure and on a gateway or test server in front of it.
 */
function azureModel(
  provider: StoredProvider,
  deployment: string,
  apiKey: string,
  fetch: typeof globalThis.fetch
) {
  const root = azureRoot(provider.baseUrl)
  const deploymentUrls = provider.settings.deploymentUrls ?? false
  return createAzure({
    baseURL: deploymentUrls ? root : `${root}/v1`,
    apiKey,
    apiVersion: deploymentUrls ? (provider.settings.apiVersion ?? AZURE_DEFAULT_API_VERSION) : undefined,
    useDeploymentBasedUrls: deploymentUrls,
    fetch
  }).chat(deployment)
}

/** `https://res.openai.azure.com/openai[/v1][/]` → `https://res.openai.azure.com/openai`. */
export function azureRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/i, '')
}

function compatible(
  baseURL: string,
  apiKey: string | undefined,
  fetch: typeof globalThis.fetch,
  metadataExtractor?: MetadataExtractor
) {
  // openai-compatible (unlike openai.chat) reads DeepSeek-style `reasoning_content`.
  return createOpenAICompatible({
    name: COMPATIBLE_PROVIDER_NAME,
    baseURL,
    apiKey: apiKey || undefined,
    includeUsage: true,
    fetch,
    metadataExtractor
  })
}

export function isGeminiWire(kind: StoredProvider['kind']): boolean {
  return kind === 'gemini' || kind === 'vertex'
}

const DEFAULT_THINKING_BUDGET = 4096

/** Per-request provider options that turn reasoning on or off in each provider's terms. */
export function reasoningOptions(
  provider: StoredProvider,
  model: ModelConfig | undefined,
  reasoning: LLMRequestOptions['reasoning']
): ProviderOptions | undefined {
  if (!reasoning) {
    return isGeminiWire(provider.kind) && model?.reasoning
      ? { google: { thinkingConfig: { includeThoughts: true } } }
      : undefined
  }
  const budget = reasoning.budgetTokens ?? DEFAULT_THINKING_BUDGET
  switch (provider.kind) {
    case 'anthropic':
      return {
        anthropic: {
          thinking: reasoning.enabled ? { type: 'enabled', budgetTokens: budget } : { type: 'disabled' }
        }
      }
    case 'gemini':
    case 'vertex':
      // The Vertex model reads `google` options when it has no `vertex` ones.
      return {
        google: {
          thinkingConfig: reasoning.enabled
            ? { includeThoughts: true, thinkingBudget: budget }
            : { thinkingBudget: 0 }
        }
      }
    case 'openai':
    case 'azure':
      // @ai-sdk/azure reads its options under the `openai` key too.
      return reasoning.enabled && reasoning.effort
        ? { openai: { reasoningEffort: reasoning.effort } }
        : undefined
    case 'groq':
    case 'mistral':
    case 'xai':
    case 'deepseek':
    case 'bedrock':
      // Reasoning is the model's choice on these (their reasoning still streams as reasoning).
      return undefined
    default:
      return reasoning.enabled && reasoning.effort
        ? { [COMPATIBLE_PROVIDER_NAME]: { reasoningEffort: reasoning.effort } }
        : undefined
  }
}
