import { z } from 'zod'

/** The search services web_search can use; the user picks one in Settings › Web search. */
export const SearchEngine = z.enum(['tavily', 'brave', 'serpapi', 'exa', 'jina', 'searxng'])
export type SearchEngine = z.infer<typeof SearchEngine>

/** Engines that work without a key (a self-hosted SearXNG). */
export const KEYLESS_ENGINES: readonly SearchEngine[] = ['searxng']

/**
 * How a chat searches the web: the app's engine (the `web_search` tool), the provider's own
 * search (for models that have one; others fall back to the app's engine), or not at all.
 */
export const WebSearchMode = z.enum(['app', 'provider', 'off'])
export type WebSearchMode = z.infer<typeof WebSearchMode>

const HttpUrl = z.url({ protocol: /^https?$/ }).max(2048)

export const WebSearchSettings = z
  .object({
    engine: SearchEngine,
    /** Results per search (1..20). */
    maxResults: z.number().int().min(1).max(20),
    /**
     * Where each engine is reached: SearXNG's is the user's own server; for the others a
     * gateway in front of the real API may be set (the default is the vendor's URL).
     */
    endpoints: z.partialRecord(SearchEngine, HttpUrl),
    /** web_fetch may read pages on this machine or the local network (off: such addresses are refused). */
    allowPrivateAddresses: z.boolean(),
    /** How a new chat searches (each chat may choose its own). */
    mode: WebSearchMode.default('app')
  })
  .strict()
export type WebSearchSettings = z.infer<typeof WebSearchSettings>

export const WEB_SEARCH_DEFAULTS: WebSearchSettings = {
  engine: 'tavily',
  maxResults: 5,
  endpoints: {},
  allowPrivateAddresses: false,
  mode: 'app'
}

/** What the page sees: the settings and which engines have a key stored (never the keys). */
export const WebSearchSettingsView = WebSearchSettings.extend({
  keys: z.partialRecord(SearchEngine, z.boolean())
})
export type WebSearchSettingsView = z.infer<typeof WebSearchSettingsView>

/** A change from the page; `keys[engine]`: a new key, '' removes it, absent keeps it. */
export const WebSearchSettingsPatch = WebSearchSettings.partial()
  .extend({ keys: z.partialRecord(SearchEngine, z.string().max(4096)).optional() })
  .strict()
export type WebSearchSettingsPatch = z.infer<typeof WebSearchSettingsPatch>

/** One numbered source of a search, as the model cites it ([1], [2]) and the chat lists it. */
export const WebSource = z.object({
  index: z.number().int().min(1),
  title: z.string(),
  /** http(s) only: results with any other scheme are dropped. */
  url: z.string(),
  site: z.string(),
  snippet: z.string()
})
export type WebSource = z.infer<typeof WebSource>
