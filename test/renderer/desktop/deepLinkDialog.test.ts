import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import DeepLinkHost from '@renderer/components/desktop/DeepLinkHost.vue'
import { useDesktopStore } from '@renderer/stores/desktop'
import { createAppI18n } from '@renderer/i18n'
import { useDesktopBridge } from './desktopHarness'

let bridge: ReturnType<typeof useDesktopBridge> | undefined
afterEach(async () => {
  await bridge?.dispose()
  bridge = undefined
})

function link(config: unknown): string {
  return `deepchat-desk://mcp/add?config=${encodeURIComponent(JSON.stringify(config))}`
}

const FILES_SERVER = {
  mcpServers: {
    files: {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
      env: { LOG_LEVEL: 'debug' },
      disabled: true,
      autoApprove: ['read_file']
    }
  }
}

async function mountHost() {
  bridge = useDesktopBridge()
  const pinia = createPinia()
  setActivePinia(pinia)
  await useDesktopStore().start()
  const wrapper = mount(DeepLinkHost, {
    global: { plugins: [pinia, createAppI18n('en-US')] },
    attachTo: document.body
  })
  await flushPromises()
  return wrapper
}

async function serverNames(): Promise<string[]> {
  return (await bridge!.presenters.mcp.listServers()).map((server) => server.name)
}

describe('deep link confirmation', () => {
  it('shows what a link would run and adds nothing until the user says yes', async () => {
    const wrapper = await mountHost()
    const before = await serverNames()
    bridge!.shell.deepLinks.receive(link(FILES_SERVER))
    await flushPromises()
    const dialog = wrapper.get('[data-testid="deep-link-dialog"]')
    expect(dialog.get('[data-testid="deep-link-server-name"]').text()).toBe('files')
    expect(dialog.get('[data-testid="deep-link-command"]').text()).toBe(
      'npx -y @modelcontextprotocol/server-filesystem /tmp'
    )
    expect(dialog.get('[data-testid="deep-link-env"]').text()).toBe('LOG_LEVEL=debug')
    expect(dialog.find('[data-testid="deep-link-auto-approve"]').exists()).toBe(true)
    // Focus starts on Cancel, the safe answer.
    expect(document.activeElement?.getAttribute('data-testid')).toBe('deep-link-cancel')
    expect(await serverNames()).toEqual(before)

    await dialog.get('[data-testid="deep-link-add"]').trigger('click')
    await flushPromises()
    expect(wrapper.get('[data-testid="deep-link-outcome-text"]').text()).toBe('Added: files')
    const added = (await bridge!.presenters.mcp.listServers()).find((server) => server.name === 'files')
    expect(added).toMatchObject({ command: 'npx', enabled: false, autoApproveTools: [] })
    wrapper.unmount()
  })

  it('declines a link when the user cancels or closes the dialog, and the id cannot be replayed', async () => {
    const wrapper = await mountHost()
    const before = await serverNames()
    const request = bridge!.shell.deepLinks.receive(link(FILES_SERVER))
    await flushPromises()
    await wrapper.get('[data-testid="deep-link-cancel"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="deep-link-dialog"]').exists()).toBe(false)
    expect(await serverNames()).toEqual(before)
    await expect(useDesktopStore().resolveDeepLink(request.id, true)).rejects.toThrow(/no longer waiting/)
    expect(await serverNames()).toEqual(before)
    wrapper.unmount()
  })

  it('explains an unusable link and offers nothing to add', async () => {
    const wrapper = await mountHost()
    bridge!.shell.deepLinks.receive('deepchat-desk://mcp/remove?config=%7B%7D')
    await flushPromises()
    expect(wrapper.get('[data-testid="deep-link-invalid-reason"]').text()).toContain(
      'Unknown link action "mcp/remove"'
    )
    expect(wrapper.find('[data-testid="deep-link-add"]').exists()).toBe(false)
    wrapper.unmount()
  })

  it('shows a link that arrived before the window opened (the link that started the app)', async () => {
    bridge = useDesktopBridge()
    bridge.shell.deepLinks.receive(link(FILES_SERVER))
    const pinia = createPinia()
    setActivePinia(pinia)
    await useDesktopStore().start()
    const wrapper = mount(DeepLinkHost, { global: { plugins: [pinia, createAppI18n('en-US')] } })
    await flushPromises()
    expect(wrapper.find('[data-testid="deep-link-dialog"]').exists()).toBe(true)
    wrapper.unmount()
  })
})
