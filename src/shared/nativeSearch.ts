import type { StoredProvider } from './types/provider'

/**
 * Providers' own web search: OpenAI's `web_search` tool (Responses API), Gemini's
 * `google_search` grounding, Anthropic's `web_search_20250305` server tool and OpenRouter's
 * `:online` models. Offered only for models known to have it (an allowlist per provider), so
 * the choice never turns into a request the provider refuses.
 */
export type NativeSearchKind = 'openai' | 'anthropic' | 'gemini' | 'openrouter'

const OPENAI_SEARCH_MODELS =
  /^(gpt-4o(?!-mini-(audio|realtime|transcribe|tts))|gpt-4\.1(?!-nano)|gpt-5|o3|o4-mini)/
const ANTHROPIC_SEARCH_MODELS = /^claude-(3-5-sonnet|3-5-haiku|3-7-sonnet|sonnet-4|opus-4|haiku-4-5|4-|4\.)/
const GEMINI_SEARCH_MODELS =
  /^(models\/)?gemini-([2-9]|\d{2,})(\.\d+)?-|^(models\/)?gemini-(flash|pro)-latest$/
const OPENROUTER_HOST = 'openrouter.ai'

/** Which search the model's provider has, or null when it has none we can use. */
export function nativeSearchKind(
  provider: Pick<StoredProvider, 'id' | 'kind' | 'baseUrl'>,
  modelId: string
): NativeSearchKind | null {
  const model = modelId.toLowerCase()
  switch (provider.kind) {
    case 'openai':
      return OPENAI_SEARCH_MODELS.test(model) ? 'openai' : null
    case 'anthropic':
      return ANTHROPIC_SEARCH_MODELS.test(model) ? 'anthropic' : null
    case 'gemini':
      return GEMINI_SEARCH_MODELS.test(model) ? 'gemini' : null
    case 'openai-compatible':
      // Every OpenRouter model can search (OpenRouter runs the search and adds the results).
      return isOpenRouter(provider) ? 'openrouter' : null
    default:
      return null
  }
}

function isOpenRouter(provider: Pick<StoredProvider, 'id' | 'kind' | 'baseUrl'>): boolean {
  if (provider.id === 'openrouter' || provider.id.startsWith('openrouter-')) return true
  try {
    const host = new URL(provider.baseUrl).hostname
    return host === OPENROUTER_HOST || host.endsWith(`.${OPENROUTER_HOST}`)
  } catch {
    return false
  }
}
