import { Agent, Dispatcher, EnvHttpProxyAgent, ProxyAgent } from 'undici'
import { socksDispatcher } from 'fetch-socks'
import type { NetworkSettings } from '@shared/types/network'
import { bypassMatcher } from './bypass'

/**
 * Sends each request either through the proxy or directly, by the host it goes to (the user's
 * bypass list). One instance serves every outgoing request of main.
 */
class BypassingDispatcher extends Dispatcher {
  constructor(
    private readonly proxied: Dispatcher,
    private readonly direct: Dispatcher,
    private readonly bypassed: (host: string) => boolean
  ) {
    super()
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = options.origin
    const host = origin ? new URL(String(origin)).hostname : ''
    return (this.bypassed(host) ? this.direct : this.proxied).dispatch(options, handler)
  }

  override async close(): Promise<void> {
    await Promise.all([this.proxied.close(), this.direct.close()])
  }

  override async destroy(): Promise<void> {
    await Promise.all([this.proxied.destroy(), this.direct.destroy()])
  }
}

/** Schemes a proxy variable may name. */
const PROXY_SCHEMES = new Set(['http:', 'https:', 'socks:', 'socks4:', 'socks5:', 'socks5h:'])

/**
 * A proxy variable's value when it is a proxy address (a URL of a proxy scheme with a host), else
 * undefined: anything else in the environment is not taken as a proxy — not used for requests
 * (where it made the whole start fail) and not handed on to child processes.
 */
export function validProxyUrl(value: string | undefined): string | undefined {
  if (!value) return undefined
  try {
    const url = new URL(value)
    return PROXY_SCHEMES.has(url.protocol) && url.hostname ? value : undefined
  } catch {
    return undefined
  }
}

/** host:port as a URL authority (IPv6 literals in brackets). */
export function proxyAuthority(settings: Pick<NetworkSettings, 'host' | 'port'>): string {
  const host =
    settings.host.includes(':') && !settings.host.startsWith('[') ? `[${settings.host}]` : settings.host
  return `${host}:${settings.port}`
}

/** The proxy as a URL with its credentials, for the environment of child processes. */
export function proxyUrl(settings: NetworkSettings, password: string | undefined): string {
  const scheme = settings.protocol === 'socks5' ? 'socks5' : settings.protocol
  const user = settings.username
    ? `${encodeURIComponent(settings.username)}${password ? `:${encodeURIComponent(password)}` : ''}@`
    : ''
  return `${scheme}://${user}${proxyAuthority(settings)}`
}

/** The dispatcher for these settings. `custom` with no host is a mistake the caller reports. */
export function createDispatcher(
  settings: NetworkSettings,
  password: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  /** How connections that go straight out (no proxy) are made: e.g. a lookup that refuses addresses. */
  directConnect?: Agent.Options['connect']
): Dispatcher {
  const directAgent = () => new Agent(directConnect ? { connect: directConnect } : {})
  if (settings.mode === 'none') return directAgent()
  // HTTP_PROXY, HTTPS_PROXY and NO_PROXY (either case) of the app's own environment.
  if (settings.mode === 'system') {
    const httpProxy = validProxyUrl(env.HTTP_PROXY ?? env.http_proxy) ?? ''
    const httpsProxy = validProxyUrl(env.HTTPS_PROXY ?? env.https_proxy) ?? httpProxy
    const noProxy = env.NO_PROXY ?? env.no_proxy ?? ''
    if (!directConnect) return new EnvHttpProxyAgent({ httpProxy, httpsProxy, noProxy })
    if (!httpProxy && !httpsProxy) return directAgent()
    // The hosts NO_PROXY sends straight out go through the checked agent.
    return new BypassingDispatcher(
      new EnvHttpProxyAgent({ httpProxy, httpsProxy, noProxy: '' }),
      directAgent(),
      bypassMatcher(noProxy.split(','))
    )
  }
  const direct = directAgent()
  const proxied =
    settings.protocol === 'socks5'
      ? socksDispatcher({
          type: 5,
          host: settings.host.replace(/^\[|\]$/g, ''),
          port: settings.port,
          ...(settings.username ? { userId: settings.username, password: password ?? '' } : {})
        })
      : new ProxyAgent({
          uri: `${settings.protocol}://${proxyAuthority(settings)}`,
          ...(settings.username
            ? { token: `Basic ${Buffer.from(`${settings.username}:${password ?? ''}`).toString('base64')}` }
            : {})
        })
  return new BypassingDispatcher(proxied, direct, bypassMatcher(settings.bypass))
}
