import type { ProxyFailure } from '@shared/types/network'

/**
 * A request that failed at the proxy, not at the server: the user's fix is in Settings ›
 * Network. It carries no cause on purpose: undici reports a refused tunnel as an aborted
 * request, which callers would take for the user's own cancel.
 */
export class ProxyError extends TypeError {
  override readonly name = 'ProxyError'
  /** `E…` so code that asks "is this a network error?" answers yes. */
  readonly code = 'EPROXY'
  constructor(
    readonly failure: ProxyFailure,
    message: string
  ) {
    super(message)
  }
}

/** The ProxyError in `error` or its causes, if any. */
export function proxyErrorIn(error: unknown, depth = 0): ProxyError | undefined {
  if (error instanceof ProxyError) return error
  if (!(error instanceof Error) || depth > 5) return undefined
  return proxyErrorIn((error as { cause?: unknown }).cause, depth + 1)
}

interface Coded {
  code?: unknown
  message: string
}

function causes(error: unknown): Coded[] {
  const out: Coded[] = []
  let current: unknown = error
  for (let depth = 0; current instanceof Error && depth < 6; depth++) {
    out.push(current as Coded)
    current = (current as { cause?: unknown }).cause
  }
  return out
}

/**
 * What went wrong at the proxy `proxy` (host:port), or undefined when the failure is not the
 * proxy's (the server itself refused, the caller aborted). undici and the SOCKS client word
 * their errors differently; both are read here.
 */
export function proxyFailureOf(error: unknown, proxy: string): ProxyError | undefined {
  const chain = causes(error)
  const text = chain.map((e) => e.message).join(' | ')
  const codes = chain.map((e) => (typeof e.code === 'string' ? e.code : ''))
  const socks = chain.some(
    (e) => (e as { name?: string }).name === 'SocksClientError' || e.constructor?.name === 'SocksClientError'
  )
  const tunnel = /Proxy response \((\d{3})\)/.exec(text)
  if (tunnel) {
    const status = Number(tunnel[1])
    if (status === 407)
      return new ProxyError(
        'proxy_auth_failed',
        `The proxy ${proxy} asked for credentials or refused them (HTTP 407). Check the user name and password in Settings › Network.`
      )
    return new ProxyError(
      'proxy_rejected',
      `The proxy ${proxy} refused to open the connection (HTTP ${status}).`
    )
  }
  if (socks && /authentication failed|Socks5 Authentication|no acceptable auth/i.test(text))
    return new ProxyError(
      'proxy_auth_failed',
      `The SOCKS proxy ${proxy} refused the user name or password. Check them in Settings › Network.`
    )
  if (
    socks &&
    /Socks5 proxy rejected connection|ConnectionRefused|HostUnreachable|NetworkUnreachable|TTLExpired/i.test(
      text
    )
  )
    return new ProxyError(
      'target_unreachable',
      `The SOCKS proxy ${proxy} could not reach the server: ${firstReason(text)}`
    )
  // Connection errors name the address they failed at: only those at the proxy are its fault.
  const atProxy = chain.some(
    (e) => e.message.includes(proxy) || (socks && /connect|getaddrinfo/.test(e.message))
  )
  const proxyHost = proxy.replace(/:\d+$/, '').replace(/^\[|\]$/g, '')
  const nameNotFound = chain.some(
    (e) => /ENOTFOUND|EAI_AGAIN/.test(String(e.code ?? e.message)) && e.message.includes(proxyHost)
  )
  if (nameNotFound)
    return new ProxyError(
      'proxy_not_found',
      `The proxy host ${proxyHost} could not be found (DNS). Check the proxy address in Settings › Network.`
    )
  if (!atProxy) return undefined
  if (codes.includes('ECONNREFUSED') || /ECONNREFUSED/.test(text))
    return new ProxyError(
      'proxy_refused',
      `Nothing accepted the connection at the proxy ${proxy}: is the proxy running, and are the address and port right?`
    )
  if (codes.some((c) => /TIMEDOUT|TIMEOUT/.test(c)) || /ETIMEDOUT|timed out/i.test(text))
    return new ProxyError('proxy_timeout', `The proxy ${proxy} did not answer in time.`)
  if (
    codes.some((c) => /EHOSTUNREACH|ENETUNREACH|ECONNRESET|EPIPE/.test(c)) ||
    /EHOSTUNREACH|ENETUNREACH|ECONNRESET/.test(text)
  )
    return new ProxyError(
      'proxy_unreachable',
      `The proxy ${proxy} could not be reached or closed the connection.`
    )
  return undefined
}

function firstReason(text: string): string {
  return text.split(' | ').pop()?.slice(0, 200) ?? text.slice(0, 200)
}
