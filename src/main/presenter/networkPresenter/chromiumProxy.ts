import { isIP } from 'node:net'
import type { NetworkSettings } from '@shared/types/network'
import { proxyAuthority } from './dispatchers'

/** Electron's `session.setProxy` configuration (its ProxyConfig), for what Chromium fetches (updates). */
export interface ChromiumProxyConfig {
  mode: 'direct' | 'system' | 'fixed_servers'
  proxyRules?: string
  proxyBypassRules?: string
}

/**
 * The same settings for Chromium's network stack, which electron-updater downloads through.
 * Bypass entries keep our meaning: `example.com` is the host and its subdomains.
 */
export function chromiumProxyConfig(settings: NetworkSettings): ChromiumProxyConfig {
  if (settings.mode === 'none') return { mode: 'direct' }
  if (settings.mode === 'system' || !settings.host) return { mode: 'system' }
  const bypass = settings.bypass.flatMap((entry) => {
    if (entry === '*' || entry === '<local>' || isIP(entry.replace(/^\[|\]$/g, '').split('/')[0]))
      return [entry]
    if (entry.startsWith('*.')) return [entry]
    if (entry.startsWith('.')) return [`*${entry}`]
    return [entry, `*.${entry}`]
  })
  return {
    mode: 'fixed_servers',
    proxyRules: `${settings.protocol}://${proxyAuthority(settings)}`,
    ...(bypass.length ? { proxyBypassRules: bypass.join(',') } : {})
  }
}
