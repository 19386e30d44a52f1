import { AppError } from '@shared/errors'
import {
  KEYLESS_ENGINES,
  SearchEngine,
  WEB_SEARCH_DEFAULTS,
  WebSearchSettings,
  WebSearchSettingsPatch,
  type WebSearchSettingsView,
  type WebSource
} from '@shared/types/webSearch'
import type { ConfigPresenter } from '../configPresenter'
import { SEARCH_ADAPTERS } from './engines'
import { numberedSources, sourcesText, untrustedBlock } from './sources'
import { assertPublicHost } from './addresses'
import { readPage, type ReadPage } from './pageReader'

const DOCUMENT_KEY = 'webSearch'
const keyName = (engine: SearchEngine) => `webSearch.key.${engine}`
const SEARCH_TIMEOUT_MS = 20_000

type WebConfig = Pick<
  ConfigPresenter,
  'getDocument' | 'setDocument' | 'getSecret' | 'setSecret' | 'deleteSecret'
>

export interface WebSearchAnswer {
  query: string
  engine: SearchEngine
  sources: WebSource[]
  /** What the model reads. */
  text: string
}

export interface WebPage extends ReadPage {
  /** What the model reads: the page inside an untrusted block. */
  text: string
}

/**
 * Web search with the engine the user picked (keys in the secret store) and page reads, both
 * through the app's one network door (`fetch`: the proxy).
 */
export class WebPresenter {
  /** Engines with a stored key, kept in step with the secret store so tool lists need not wait for it. */
  private readonly keyed = new Set<SearchEngine>()

  constructor(
    private readonly deps: {
      config: WebConfig
      fetch: typeof globalThis.fetch
      /** `fetch` whose direct connections reach only public addresses (checked as they connect). */
      fetchPublic: typeof globalThis.fetch
    }
  ) {
    for (const engine of SearchEngine.options)
      void deps.config.getSecret(keyName(engine)).then(
        (key) => void (key ? this.keyed.add(engine) : undefined),
        () => undefined
      )
  }

  settings(): WebSearchSettings {
    return this.deps.config.getDocument(DOCUMENT_KEY, WebSearchSettings, WEB_SEARCH_DEFAULTS)
  }

  async view(): Promise<WebSearchSettingsView> {
    const keys: WebSearchSettingsView['keys'] = {}
    for (const engine of SearchEngine.options)
      keys[engine] = Boolean(await this.deps.config.getSecret(keyName(engine)))
    return { ...this.settings(), keys }
  }

  async update(patch: WebSearchSettingsPatch): Promise<WebSearchSettingsView> {
    const parsed = WebSearchSettingsPatch.safeParse(patch)
    if (!parsed.success)
      throw new AppError(
        'invalid_setting',
        `webSearch: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`
      )
    const { keys, ...fields } = parsed.data
    const next = { ...this.settings(), ...fields }
    if (fields.endpoints)
      next.endpoints = Object.fromEntries(Object.entries(fields.endpoints).filter(([, url]) => url))
    this.deps.config.setDocument(DOCUMENT_KEY, WebSearchSettings, next)
    for (const [engine, key] of Object.entries(keys ?? {}) as [SearchEngine, string][]) {
      if (key.trim()) {
        await this.deps.config.setSecret(keyName(engine), key.trim())
        this.keyed.add(engine)
      } else {
        await this.deps.config.deleteSecret(keyName(engine))
        this.keyed.delete(engine)
      }
    }
    return this.view()
  }

  /**
   * Whether web_search can run, so it is offered only then: the engine has its key (SearXNG:
   * its server's address).
   */
  searchReady(): boolean {
    const { engine, endpoints } = this.settings()
    if (engine === 'searxng') return Boolean(endpoints.searxng)
    return KEYLESS_ENGINES.includes(engine) || this.keyed.has(engine)
  }

  async search(
    query: string,
    options: { count?: number; signal?: AbortSignal } = {}
  ): Promise<WebSearchAnswer> {
    const settings = this.settings()
    const adapter = SEARCH_ADAPTERS[settings.engine]
    const count = Math.min(options.count ?? settings.maxResults, 20)
    const timeout = AbortSignal.timeout(SEARCH_TIMEOUT_MS)
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
    const endpoint = (settings.endpoints[settings.engine] ?? adapter.defaultEndpoint).replace(/\/+$/, '')
    let raw
    try {
      raw = await adapter.search({
        query,
        count,
        key: await this.deps.config.getSecret(keyName(settings.engine)),
        endpoint,
        fetch: this.deps.fetch,
        signal
      })
    } catch (error) {
      if (timeout.aborted && !options.signal?.aborted)
        throw new AppError(
          'web_search_timeout',
          `${adapter.label} did not answer within ${SEARCH_TIMEOUT_MS / 1000} s.`
        )
      throw error
    }
    const sources = numberedSources(raw, count)
    return { query, engine: settings.engine, sources, text: sourcesText(query, adapter.label, sources) }
  }

  /** Reads a page as markdown; non-public addresses only when the user allowed them. */
  async fetchPage(url: string, signal?: AbortSignal): Promise<WebPage> {
    const allowPrivate = this.settings().allowPrivateAddresses
    const page = await readPage(
      allowPrivate
        ? { fetch: this.deps.fetch, checkHost: async () => {} }
        : { fetch: this.deps.fetchPublic, checkHost: assertPublicHost },
      url,
      signal
    )
    const header = `${page.title ? `# ${page.title}\n` : ''}Source: ${page.url}${page.truncated ? '\n(The page was cut to fit.)' : ''}`
    return { ...page, text: untrustedBlock('web page', `${header}\n\n${page.markdown}`) }
  }
}
