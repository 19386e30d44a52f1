import { describe, expect, it } from 'vitest'
import type { Plugin } from 'vite'
import config from '../../../electron.vite.config'
import { CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY } from '../../../src/main/security'

function directives(policy: string): Map<string, string> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(' ')[0], d.slice(d.indexOf(' ') + 1)])
  )
}

describe('Content-Security-Policy', () => {
  it('the <meta> policy is the header policy without what a <meta> may not carry', () => {
    const header = directives(CONTENT_SECURITY_POLICY)
    const meta = directives(META_CONTENT_SECURITY_POLICY)
    expect(header.get('frame-ancestors')).toBe("'none'")
    expect(meta.has('frame-ancestors')).toBe(false)
    header.delete('frame-ancestors')
    expect(meta).toEqual(header)
    expect(meta.get('script-src')).toBe("'self'")
  })

  it('the renderer build writes it first in index.html’s head', async () => {
    const renderer = (config as { renderer: { plugins: Plugin[] } }).renderer
    const plugin = renderer.plugins.find((p) => p && p.name === 'deepchat-csp-meta')
    expect(plugin?.apply).toBe('build')
    const hook = plugin!.transformIndexHtml as () => unknown
    expect(hook()).toEqual([
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: META_CONTENT_SECURITY_POLICY },
        injectTo: 'head-prepend'
      }
    ])
  })
})
