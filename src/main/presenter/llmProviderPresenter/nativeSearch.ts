import type { LanguageModel, ToolSet } from 'ai'
import { createOpenAI, openai } from '@ai-sdk/openai'
import { anthropic } from '@ai-sdk/anthropic'
import { google } from '@ai-sdk/google'
import type { MetadataExtractor } from '@ai-sdk/openai-compatible'
import type { NativeSearchKind } from '@shared/nativeSearch'

export { nativeSearchKind, type NativeSearchKind } from '@shared/nativeSearch'

/** The app's own search tool: never offered beside the provider's (one search, not two). */
export const APP_WEB_SEARCH_TOOL = 'web_search'

/** OpenRouter's web search: the same model with `:online` (its documented shortcut for the web plugin). */
export function openRouterOnlineModel(modelId: string): string {
  return modelId.endsWith(':online') ? modelId : `${modelId}:online`
}

/** The OpenAI model on the Responses API, the only OpenAI API with the web search tool. */
export function openAiResponsesModel(
  baseURL: string,
  apiKey: string,
  modelId: string,
  fetch: typeof globalThis.fetch
): LanguageModel {
  return createOpenAI({ baseURL, apiKey, fetch }).responses(modelId)
}

/** The provider's search tool, built by the provider's AI SDK package; OpenRouter needs none. */
export function nativeSearchTools(kind: NativeSearchKind): ToolSet {
  // The provider tools' input types (`{}`) are narrower than ToolSet's; the SDK reads them by id.
  const toolSet = (tools: Record<string, unknown>) => tools as ToolSet
  switch (kind) {
    case 'openai':
      return toolSet({ [APP_WEB_SEARCH_TOOL]: openai.tools.webSearch({}) })
    case 'anthropic':
      return toolSet({ [APP_WEB_SEARCH_TOOL]: anthropic.tools.webSearch_20250305({ maxUses: 5 }) })
    case 'gemini':
      return toolSet({ google_search: google.tools.googleSearch({}) })
    case 'openrouter':
      return {}
  }
}

/** Where OpenRouter's citations are kept in the stream's provider metadata. */
export const OPENROUTER_METADATA_KEY = 'openrouterWeb'

/**
 * OpenRouter reports the pages behind an `:online` answer as `url_citation` annotations on the
 * message (OpenAI's chat format), which the compatible client does not read: this collects
 * them into the finish step's provider metadata, `{ openrouterWeb: { citations: [{url, title}] } }`.
 */
export const openRouterCitations: MetadataExtractor = {
  extractMetadata: async ({ parsedBody }) => citationMetadata(annotationsOf(parsedBody, 'message')),
  createStreamExtractor: () => {
    const found: Citation[] = []
    return {
      processChunk: (chunk) => void found.push(...annotationsOf(chunk, 'delta')),
      buildMetadata: () => citationMetadata(found)
    }
  }
}

// A type, not an interface: provider metadata must be plain JSON (an index signature).
type Citation = { url: string; title: string }

function citationMetadata(citations: Citation[]) {
  return citations.length ? { [OPENROUTER_METADATA_KEY]: { citations } } : undefined
}

function annotationsOf(body: unknown, field: 'message' | 'delta'): Citation[] {
  const choices = (body as { choices?: unknown } | null)?.choices
  if (!Array.isArray(choices)) return []
  const citations: Citation[] = []
  for (const choice of choices) {
    const annotations = (choice as Record<string, { annotations?: unknown } | undefined>)?.[field]
      ?.annotations
    if (!Array.isArray(annotations)) continue
    for (const annotation of annotations) {
      const cited = (annotation as { type?: unknown; url_citation?: { url?: unknown; title?: unknown } })
        ?.url_citation
      if ((annotation as { type?: unknown }).type !== 'url_citation' || typeof cited?.url !== 'string')
        continue
      citations.push({ url: cited.url, title: typeof cited.title === 'string' ? cited.title : '' })
    }
  }
  return citations
}

/** OpenRouter's citations from a finish step's provider metadata (anything else is ignored). */
export function openRouterCitationsOf(metadata: unknown): Citation[] {
  const citations = (metadata as Record<string, { citations?: unknown } | undefined> | undefined)?.[
    OPENROUTER_METADATA_KEY
  ]?.citations
  if (!Array.isArray(citations)) return []
  return citations.filter(
    (c): c is Citation =>
      typeof (c as Citation)?.url === 'string' && typeof (c as Citation)?.title === 'string'
  )
}
