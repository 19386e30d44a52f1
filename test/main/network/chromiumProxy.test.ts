import { describe, expect, it } from 'vitest'
import { NETWORK_DEFAULTS } from '@shared/types/network'
import { chromiumProxyConfig } from '../../../src/main/presenter/networkPresenter/chromiumProxy'

describe("Chromium's proxy (the desktop app's updates)", () => {
  it('none is direct and system is the OS setting', () => {
    expect(chromiumProxyConfig({ ...NETWORK_DEFAULTS, mode: 'none' })).toEqual({ mode: 'direct' })
    expect(chromiumProxyConfig({ ...NETWORK_DEFAULTS, mode: 'system' })).toEqual({ mode: 'system' })
  })

  it('a custom proxy becomes fixed servers with the bypass list in the same meaning', () => {
    expect(
      chromiumProxyConfig({
        ...NETWORK_DEFAULTS,
        mode: 'custom',
        protocol: 'socks5',
        host: 'proxy.corp',
        port: 1080,
        username: 'alice',
        bypass: ['example.com', '*.corp.test', '.intra', '10.0.0.0/8', '::1', '<local>']
      })
    ).toEqual({
      mode: 'fixed_servers',
      // Credentials never go into the rules: Chromium asks for them (app 'login').
      proxyRules: 'socks5://proxy.corp:1080',
      proxyBypassRules: 'example.com,*.example.com,*.corp.test,*.intra,10.0.0.0/8,::1,<local>'
    })
  })
})
