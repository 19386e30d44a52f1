import { describe, expect, it } from 'vitest'
import { createServer } from 'node:net'
import NetworkSettings from '@renderer/pages/settings/NetworkSettings.vue'
import WebSearchSettings from '@renderer/pages/settings/WebSearchSettings.vue'
import { eventually, useSettingsPage } from './helpers'

const mountPage = useSettingsPage()

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe('Settings › Network', () => {
  it('saves a custom proxy with its password kept secret, and Test names the proxy as what failed', async () => {
    const { wrapper, bridge } = await mountPage(NetworkSettings)
    await wrapper.get('[data-testid="network-mode-custom"]').setValue(true)
    const port = await closedPort()
    await wrapper.get('[data-testid="network-protocol"]').setValue('socks5')
    await wrapper.get('[data-testid="network-host"]').setValue('127.0.0.1')
    await wrapper.get('[data-testid="network-port"]').setValue(String(port))
    await wrapper.get('[data-testid="network-username"]').setValue('alice')
    await wrapper.get('[data-testid="network-password"]').setValue('pa55-word-XYZ')
    await wrapper.get('[data-testid="network-bypass"]').setValue('localhost\n*.corp.example')
    await wrapper.get('[data-testid="network-save"]').trigger('submit')
    await eventually(() => expect(wrapper.get('[data-testid="network-status"]').text()).toContain('saved'))
    expect(await bridge.presenters.network.view()).toMatchObject({
      mode: 'custom',
      protocol: 'socks5',
      port,
      username: 'alice',
      bypass: ['localhost', '*.corp.example'],
      hasPassword: true
    })
    // The password field is emptied and the page only says one is stored.
    expect((wrapper.get('[data-testid="network-password"]').element as HTMLInputElement).value).toBe('')
    expect(wrapper.text()).toContain('A password is stored')
    expect(wrapper.html()).not.toContain('pa55-word-XYZ')

    await wrapper.get('[data-testid="network-test-url"]').setValue('http://example.com/')
    await wrapper.get('[data-testid="network-test"]').trigger('click')
    await eventually(() =>
      expect(wrapper.get('[data-testid="network-test-status"]').text()).toContain(
        `Nothing accepted the connection at the proxy 127.0.0.1:${port}`
      )
    )
  })

  it('refuses a host with a scheme and keeps the saved settings', async () => {
    const { wrapper, bridge } = await mountPage(NetworkSettings)
    await wrapper.get('[data-testid="network-mode-custom"]').setValue(true)
    await wrapper.get('[data-testid="network-host"]').setValue('http://proxy/')
    await wrapper.get('[data-testid="network-save"]').trigger('submit')
    await eventually(() => expect(wrapper.get('[data-testid="network-status"]').text()).toMatch(/host/))
    expect((await bridge.presenters.network.view()).mode).toBe('system')
  })
})

describe('Settings › Web search', () => {
  it('stores the engine key as a secret and shows only that one is stored', async () => {
    const { wrapper, bridge } = await mountPage(WebSearchSettings)
    await eventually(() => expect(wrapper.find('[data-testid="web-engine"]').exists()).toBe(true))
    await wrapper.get('[data-testid="web-engine"]').setValue('brave')
    await wrapper.get('[data-testid="web-key"]').setValue('BSA-secret-key-1')
    await wrapper.get('[data-testid="web-max-results"]').setValue('8')
    await wrapper.get('[data-testid="web-save"]').trigger('submit')
    await eventually(() => expect(wrapper.get('[data-testid="web-status"]').text()).toContain('saved'))
    const view = await bridge.presenters.web.view()
    expect(view).toMatchObject({ engine: 'brave', maxResults: 8, keys: { brave: true } })
    expect(await bridge.presenters.config.getSecret('webSearch.key.brave')).toBe('BSA-secret-key-1')
    expect(wrapper.text()).toContain('A key is stored')
    expect(wrapper.html()).not.toContain('BSA-secret-key-1')
  })
})
