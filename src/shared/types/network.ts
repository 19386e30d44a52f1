import { z } from 'zod'

/**
 * How main reaches the network: `system` takes the proxy from the environment the app was
 * started with (HTTP_PROXY, HTTPS_PROXY, NO_PROXY), `none` connects directly whatever the
 * environment says, `custom` uses the proxy below. The password is a secret: it is stored in
 * the secret store and the renderer only learns whether there is one.
 */
export const ProxyMode = z.enum(['system', 'none', 'custom'])
export type ProxyMode = z.infer<typeof ProxyMode>

export const ProxyProtocol = z.enum(['http', 'https', 'socks5'])
export type ProxyProtocol = z.infer<typeof ProxyProtocol>

/** A host name, an IP literal or a bracketed IPv6 literal: no scheme, path, user or spaces. */
const ProxyHost = z
  .string()
  .trim()
  .max(253)
  .regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+|[0-9a-fA-F:.]+)$/, 'not a host name or IP address')

/**
 * One bypass entry: a host (`localhost`, `example.com`, which also covers its subdomains),
 * a subdomain pattern (`*.corp.example`, `.corp.example`), an IP address, a CIDR range
 * (`10.0.0.0/8`), `<local>` (host names without a dot) or `*` (everything).
 */
const BypassEntry = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(
    /^(\*|<local>|(\*\.|\.)?[A-Za-z0-9.:_\-[\]]+(\/\d{1,3})?)$/,
    'not a host, domain pattern or CIDR range'
  )

export const NetworkSettings = z
  .object({
    mode: ProxyMode,
    protocol: ProxyProtocol,
    host: z.union([z.literal(''), ProxyHost]),
    port: z.number().int().min(1).max(65_535),
    username: z
      .string()
      .max(256)
      .regex(/^[^\s:]*$/, 'no spaces or colons'),
    bypass: z.array(BypassEntry).max(200)
  })
  .strict()
export type NetworkSettings = z.infer<typeof NetworkSettings>

export const NETWORK_DEFAULTS: NetworkSettings = {
  mode: 'system',
  protocol: 'http',
  host: '',
  port: 8080,
  username: '',
  bypass: ['localhost', '127.0.0.1', '::1']
}

/** What the renderer sees: the settings and whether a password is stored, never the password. */
export const NetworkSettingsView = NetworkSettings.extend({ hasPassword: z.boolean() })
export type NetworkSettingsView = z.infer<typeof NetworkSettingsView>

/** A change from the page. `password`: a new one, `''` removes it, absent keeps the stored one. */
export const NetworkSettingsPatch = NetworkSettings.partial()
  .extend({ password: z.string().max(1024).optional() })
  .strict()
export type NetworkSettingsPatch = z.infer<typeof NetworkSettingsPatch>

/** Why a request through the proxy failed, for the page to word. */
export const ProxyFailure = z.enum([
  'proxy_refused',
  'proxy_not_found',
  'proxy_auth_failed',
  'proxy_unreachable',
  'proxy_timeout',
  'proxy_rejected',
  'target_unreachable',
  'invalid_proxy'
])
export type ProxyFailure = z.infer<typeof ProxyFailure>

export const ProxyTestResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), status: z.number().int(), ms: z.number() }),
  z.object({ ok: z.literal(false), code: ProxyFailure, message: z.string() })
])
export type ProxyTestResult = z.infer<typeof ProxyTestResult>
