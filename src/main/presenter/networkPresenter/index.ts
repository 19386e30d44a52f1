import { fetch as undiciFetch, type Agent, type Dispatcher } from 'undici'
import { AppError } from '@shared/errors'
import {
  NETWORK_DEFAULTS,
  NetworkSettings,
  NetworkSettingsPatch,
  type NetworkSettingsView,
  type ProxyTestResult
} from '@shared/types/network'
import { networkSettingsChanged } from '@shared/contracts/events/network.events'
import type { ConfigPresenter } from '../configPresenter'
import type { EventSink } from '../../bridge/events'
import { chromiumProxyConfig, type ChromiumProxyConfig } from './chromiumProxy'
import { describeConnectionError } from '../../platform/systemErrorWords'
import { createDispatcher, proxyAuthority, proxyUrl, validProxyUrl } from './dispatchers'
import { publicOnlyLookup } from './publicAddresses'
import { proxyFailureOf } from './proxyError'

export { ProxyError, proxyErrorIn } from './proxyError'

const DOCUMENT_KEY = 'network'
const PASSWORD_SECRET = 'network.proxyPassword'
/** A small page every network answers quickly; the user may test another. */
const DEFAULT_TEST_URL = 'https://www.gstatic.com/generate_204'
const TEST_TIMEOUT_MS = 10_000

const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY']

type NetworkConfig = Pick<
  ConfigPresenter,
  'getDocument' | 'setDocument' | 'getSecret' | 'setSecret' | 'deleteSecret'
>

interface Route {
  dispatcher: Dispatcher
  /** host:port of the proxy in use, to tell its failures from the server's; null when direct. */
  proxy: string | null
}

/**
 * The one way main reaches the network: `fetch` sends every request (providers, model lists,
 * MCP over HTTP and its OAuth, web search and page reads) through the dispatcher of the
 * user's proxy settings, and `childProxyEnvironment` gives MCP servers and ACP agents the same
 * proxy as variables. A failure at the proxy becomes a ProxyError that says so.
 */
export class NetworkPresenter {
  private settings: NetworkSettings
  private password: string | undefined
  private route: Route
  /** The route for `fetchPublic`, built on first use and again when the settings change. */
  private publicRoute: Route | undefined
  private readonly ready: Promise<void>

  constructor(
    private readonly deps: {
      config: NetworkConfig
      /** The app's environment, for `system` mode (tests pass their own). */
      env?: NodeJS.ProcessEnv
      /** Where `network.settings.changed` goes (the desktop app re-applies the proxy to Chromium). */
      events?: EventSink
      log?: (message: string) => void
    }
  ) {
    this.settings = deps.config.getDocument(DOCUMENT_KEY, NetworkSettings, NETWORK_DEFAULTS)
    this.route = this.routeFor(this.settings, undefined)
    this.ready = deps.config
      .getSecret(PASSWORD_SECRET)
      .then((password) => {
        this.password = password
        this.replaceRoute(this.routeFor(this.settings, password))
      })
      .catch((error: unknown) => deps.log?.(`network: could not read the proxy password: ${String(error)}`))
  }

  /** `fetch` through the user's proxy (or directly, per the settings and bypass list). */
  readonly fetch: typeof globalThis.fetch = async (input, init) => {
    await this.ready
    return send(this.route, input, init)
  }

  /**
   * `fetch` for addresses a model names (web_fetch): the same route, but a connection that goes
   * straight out is made only to public addresses, checked when it connects — a name answering a
   * public address to the first look and a private one to the next (DNS rebinding) is refused.
   * Through a proxy, the proxy resolves the name.
   */
  readonly fetchPublic: typeof globalThis.fetch = async (input, init) => {
    await this.ready
    this.publicRoute ??= this.routeFor(this.settings, this.password, { lookup: publicOnlyLookup })
    return send(this.publicRoute, input, init)
  }

  async view(): Promise<NetworkSettingsView> {
    await this.ready
    return { ...this.settings, hasPassword: Boolean(this.password) }
  }

  async update(patch: NetworkSettingsPatch): Promise<NetworkSettingsView> {
    await this.ready
    const { password, ...fields } = NetworkSettingsPatch.parse(patch)
    const next = this.checked({ ...this.settings, ...fields })
    this.deps.config.setDocument(DOCUMENT_KEY, NetworkSettings, next)
    if (password === '') await this.deps.config.deleteSecret(PASSWORD_SECRET)
    else if (password !== undefined) await this.deps.config.setSecret(PASSWORD_SECRET, password)
    if (password !== undefined) this.password = password || undefined
    this.settings = next
    this.replaceRoute(this.routeFor(next, this.password))
    const view = await this.view()
    this.deps.events?.emit(networkSettingsChanged, { settings: view })
    return view
  }

  /** The proxy for Chromium's own requests (the desktop app's updates). */
  chromiumProxy(): ChromiumProxyConfig {
    return chromiumProxyConfig(this.settings)
  }

  /** The custom proxy's credentials, for Chromium's proxy login prompt; null when none are set. */
  async proxyLogin(): Promise<{ username: string; password: string } | null> {
    await this.ready
    if (this.settings.mode !== 'custom' || !this.settings.username) return null
    return { username: this.settings.username, password: this.password ?? '' }
  }

  /**
   * One request to `url` through the settings given (unsaved values from the page, over the
   * saved ones), with a clear reason when it fails: at the proxy (refused, name not found,
   * credentials) or past it.
   */
  async test(patch: NetworkSettingsPatch = {}, url = DEFAULT_TEST_URL): Promise<ProxyTestResult> {
    await this.ready
    const { password, ...fields } = NetworkSettingsPatch.parse(patch)
    let route: Route
    try {
      route = this.routeFor(this.checked({ ...this.settings, ...fields }), password ?? this.password)
    } catch (error) {
      return {
        ok: false,
        code: 'invalid_proxy',
        message: error instanceof Error ? error.message : String(error)
      }
    }
    const started = performance.now()
    try {
      // undici's own fetch: the same library as the dispatcher, whatever fetch the host provides.
      const response = await undiciFetch(url, {
        method: 'GET',
        dispatcher: route.dispatcher,
        signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
        redirect: 'manual'
      })
      await response.body?.cancel()
      return { ok: true, status: response.status, ms: Math.round(performance.now() - started) }
    } catch (error) {
      const atProxy = route.proxy ? proxyFailureOf(error, route.proxy) : undefined
      if (atProxy) return { ok: false, code: atProxy.failure, message: atProxy.message }
      const timedOut = (error as { name?: string }).name === 'TimeoutError'
      const words = timedOut
        ? `No answer from ${new URL(url).host} within ${TEST_TIMEOUT_MS / 1000} s.`
        : (describeConnectionError(error, { url }) ??
          (error instanceof Error ? error.message : String(error)))
      return {
        ok: false,
        code: timedOut && route.proxy ? 'proxy_timeout' : 'target_unreachable',
        message: words
      }
    } finally {
      void route.dispatcher.close().catch(() => undefined)
    }
  }

  /**
   * The proxy variables MCP servers and ACP agents start with (they connect on their own). In
   * `system` mode the app's own; in `custom` mode the proxy with its credentials, because those
   * programs are the user's and need them; `none` gives none. `exec` commands never get these.
   */
  async childProxyEnvironment(): Promise<Record<string, string>> {
    await this.ready
    const settings = this.settings
    if (settings.mode === 'none') return {}
    if (settings.mode === 'system') {
      const env = this.deps.env ?? process.env
      const out: Record<string, string> = {}
      for (const name of PROXY_VARIABLES)
        for (const key of [name, name.toLowerCase()]) {
          const value = name === 'NO_PROXY' ? env[key] : validProxyUrl(env[key])
          if (value) out[key] = value
        }
      return out
    }
    const url = proxyUrl(settings, this.password)
    const noProxy = settings.bypass.join(',')
    const out: Record<string, string> = {
      HTTP_PROXY: url,
      HTTPS_PROXY: url,
      http_proxy: url,
      https_proxy: url
    }
    if (settings.protocol === 'socks5') Object.assign(out, { ALL_PROXY: url, all_proxy: url })
    if (noProxy) Object.assign(out, { NO_PROXY: noProxy, no_proxy: noProxy })
    return out
  }

  async dispose(): Promise<void> {
    await this.route.dispatcher.close().catch(() => undefined)
  }

  private checked(settings: NetworkSettings): NetworkSettings {
    const parsed = NetworkSettings.safeParse(settings)
    if (!parsed.success)
      throw new AppError(
        'invalid_setting',
        `network: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`
      )
    if (parsed.data.mode === 'custom' && !parsed.data.host)
      throw new AppError('invalid_setting', 'network: a custom proxy needs a host')
    return parsed.data
  }

  private routeFor(
    settings: NetworkSettings,
    password: string | undefined,
    directConnect?: Agent.Options['connect']
  ): Route {
    if (settings.mode === 'custom' && !settings.host)
      return {
        dispatcher: createDispatcher({ ...settings, mode: 'none' }, undefined, undefined, directConnect),
        proxy: null
      }
    const dispatcher = createDispatcher(settings, password, this.deps.env, directConnect)
    if (settings.mode === 'custom') return { dispatcher, proxy: proxyAuthority(settings) }
    if (settings.mode === 'system')
      return { dispatcher, proxy: systemProxyAuthority(this.deps.env ?? process.env) }
    return { dispatcher, proxy: null }
  }

  private replaceRoute(next: Route): void {
    const previous = this.route
    this.route = next
    // Requests already under way finish on the old one.
    void previous.dispatcher.close().catch(() => undefined)
    void this.publicRoute?.dispatcher.close().catch(() => undefined)
    this.publicRoute = undefined
  }
}

/** One request on a route; a failure at the proxy is named as the proxy's. */
async function send(
  { dispatcher, proxy }: Route,
  input: Parameters<typeof globalThis.fetch>[0],
  init: RequestInit | undefined
): Promise<Response> {
  try {
    return await globalThis.fetch(input, { ...init, dispatcher } as RequestInit)
  } catch (error) {
    if (!proxy || init?.signal?.aborted) throw error
    throw proxyFailureOf(error, proxy) ?? error
  }
}

/** host:port of the environment's proxy, for telling its failures apart. */
function systemProxyAuthority(env: NodeJS.ProcessEnv): string | null {
  const raw =
    validProxyUrl(env.HTTPS_PROXY ?? env.https_proxy) ?? validProxyUrl(env.HTTP_PROXY ?? env.http_proxy)
  if (!raw) return null
  try {
    const url = new URL(raw)
    return `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`
  } catch {
    return null
  }
}
