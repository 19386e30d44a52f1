import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import GeneralSettings from '@renderer/pages/settings/GeneralSettings.vue'
import { useSettingsStore } from '@renderer/stores/settings'
import { useDesktopStore } from '@renderer/stores/desktop'
import { createAppI18n } from '@renderer/i18n'
import { runAppCommand } from '@renderer/components/desktop/appCommands'
import { useDesktopBridge } from './desktopHarness'
import { useRealBridge } from '../helpers/realBridge'

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
})

async function mountGeneral() {
  const pinia = createPinia()
  setActivePinia(pinia)
  await useSettingsStore().load()
  await useDesktopStore().refresh()
  const wrapper = mount(GeneralSettings, { global: { plugins: [pinia, createAppI18n('en-US')] } })
  await flushPromises()
  return wrapper
}

describe('Settings > General in the desktop app', () => {
  it('refuses an accelerator without a modifier with a clear message and keeps the old shortcut', async () => {
    const bridge = useDesktopBridge()
    dispose = bridge.dispose
    expect([...bridge.shortcuts.registered]).toEqual(['CommandOrControl+Shift+D'])
    const wrapper = await mountGeneral()
    await wrapper.get('[data-testid="global-shortcut"]').setValue('D')
    await wrapper.get('[data-testid="global-shortcut-save"]').trigger('submit')
    await flushPromises()
    expect(wrapper.get('[data-testid="settings-status"]').text()).toContain('needs at least one modifier')
    expect(bridge.presenters.config.getSettings().globalShortcut).toBe('CommandOrControl+Shift+D')
    expect([...bridge.shortcuts.registered]).toEqual(['CommandOrControl+Shift+D'])
  })

  it('moves the shortcut, says when another app holds it, and removes it when cleared', async () => {
    const bridge = useDesktopBridge()
    dispose = bridge.dispose
    bridge.shortcuts.taken.add('Alt+Space')
    const wrapper = await mountGeneral()
    await wrapper.get('[data-testid="global-shortcut"]').setValue('Alt+Shift+K')
    await wrapper.get('[data-testid="global-shortcut-save"]').trigger('submit')
    await flushPromises()
    expect([...bridge.shortcuts.registered]).toEqual(['Alt+Shift+K'])
    expect(wrapper.find('[data-testid="global-shortcut-problem"]').exists()).toBe(false)

    await wrapper.get('[data-testid="global-shortcut"]').setValue('Alt+Space')
    await wrapper.get('[data-testid="global-shortcut-save"]').trigger('submit')
    await flushPromises()
    expect(wrapper.get('[data-testid="global-shortcut-problem"]').text()).toContain(
      'Another application already uses'
    )

    await wrapper.get('[data-testid="global-shortcut"]').setValue('')
    await wrapper.get('[data-testid="global-shortcut-save"]').trigger('submit')
    await flushPromises()
    expect(bridge.shortcuts.registered.size).toBe(0)
    expect(wrapper.get('[data-testid="settings-status"]').text()).toBe('Shortcut removed.')
  })

  it('turns automatic updates off and on', async () => {
    const bridge = useDesktopBridge()
    dispose = bridge.dispose
    const wrapper = await mountGeneral()
    const toggle = wrapper.get('[data-testid="auto-update"]')
    expect((toggle.element as HTMLInputElement).checked).toBe(true)
    await toggle.setValue(false)
    await flushPromises()
    expect(bridge.presenters.config.getSettings().autoUpdate).toBe(false)
    expect(bridge.shell.status().update).toEqual({ state: 'disabled', reason: 'setting' })
  })

  it('hides the desktop settings in the headless host', async () => {
    const bridge = useRealBridge()
    dispose = bridge.dispose
    const wrapper = await mountGeneral()
    expect(wrapper.find('[data-testid="desktop-settings"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="global-shortcut"]').exists()).toBe(false)
  })
})

describe('menu and tray commands in the window', () => {
  it('opens a new chat, the settings and the history search', async () => {
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [
        { path: '/', component: { template: '<textarea data-testid="chat-input-text" />' } },
        { path: '/chat/:id', component: { template: '<div />' } },
        { path: '/settings', component: { template: '<div />' } }
      ]
    })
    const host = mount(
      { template: '<div><input id="history-search" /><RouterView /></div>' },
      { global: { plugins: [router] }, attachTo: document.body }
    )
    await router.push('/chat/abc')
    await runAppCommand('settings', router)
    expect(router.currentRoute.value.path).toBe('/settings')
    await runAppCommand('newChat', router)
    await flushPromises()
    expect(router.currentRoute.value.path).toBe('/')
    expect(document.activeElement?.getAttribute('data-testid')).toBe('chat-input-text')
    await runAppCommand('search', router)
    expect(document.activeElement?.id).toBe('history-search')
    host.unmount()
  })
})
