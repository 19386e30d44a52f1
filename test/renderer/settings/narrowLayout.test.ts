import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '@renderer/i18n'
import SettingsLayout from '@renderer/pages/settings/SettingsLayout.vue'
import ProvidersSettings from '@renderer/pages/settings/ProvidersSettings.vue'
import { useRealBridge } from '../helpers/realBridge'
import { eventually } from './helpers'

/**
 * Settings in an 800×600 window: the section row scrolls sideways and says so, and a provider
 * opened from the list is brought into view (its details sit below the list there).
 */
let bridge: ReturnType<typeof useRealBridge> | undefined
afterEach(async () => {
  vi.restoreAllMocks()
  await bridge?.dispose()
  bridge = undefined
})

const SECTIONS = [
  'general',
  'providers',
  'mcp',
  'permissions',
  'agents',
  'agent-tools',
  'skills',
  'memory',
  'network',
  'web-search',
  'knowledge',
  'image',
  'prompts',
  'assistants',
  'about'
]

function settingsRouter() {
  const empty = { render: () => null }
  return createRouter({
    history: createMemoryHistory(),
    routes: [
      {
        path: '/settings',
        component: SettingsLayout,
        children: SECTIONS.map((s) => ({ path: s, name: `settings-${s}`, component: empty }))
      }
    ]
  })
}

/** The row as a browser lays it out at 800 px: 400 px visible of 1200 px of sections. */
function narrow(el: HTMLElement, scrollLeft = 0): void {
  Object.defineProperty(el, 'clientWidth', { configurable: true, value: 400 })
  Object.defineProperty(el, 'scrollWidth', { configurable: true, value: 1200 })
  Object.defineProperty(el, 'scrollLeft', { configurable: true, writable: true, value: scrollLeft })
}

describe('Settings at 800×600', () => {
  it('shows there are more sections on the side they are hidden, and scrolls there on click', async () => {
    const router = settingsRouter()
    await router.push('/settings/general')
    const wrapper = mount(
      { template: '<RouterView />' },
      { global: { plugins: [router, createAppI18n('en-US')] } }
    )
    await flushPromises()
    const nav = wrapper.get('[data-testid="settings-nav"]').element as HTMLElement
    expect(wrapper.find('[data-testid="settings-nav-after"]').exists()).toBe(false)

    narrow(nav)
    await wrapper.get('[data-testid="settings-nav"]').trigger('scroll')
    expect(wrapper.find('[data-testid="settings-nav-before"]').exists()).toBe(false)
    const after = wrapper.get('[data-testid="settings-nav-after"]')
    expect(after.attributes('aria-label')).toBe('Show more sections')
    const scrollBy = vi.fn()
    nav.scrollBy = scrollBy as never
    await after.trigger('click')
    expect(scrollBy).toHaveBeenCalledWith(expect.objectContaining({ left: expect.any(Number) }))
    expect(scrollBy.mock.calls[0][0].left).toBeGreaterThan(0)

    // Scrolled to the end: the hint moves to the other side.
    narrow(nav, 800)
    await wrapper.get('[data-testid="settings-nav"]').trigger('scroll')
    expect(wrapper.find('[data-testid="settings-nav-before"]').exists()).toBe(true)
    expect(wrapper.find('[data-testid="settings-nav-after"]').exists()).toBe(false)
  })

  it('scrolls the open section into the row when the page changes', async () => {
    const seen: string[] = []
    vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: HTMLElement) {
      seen.push(this.getAttribute('data-testid') ?? '')
    })
    const router = settingsRouter()
    await router.push('/settings/general')
    mount({ template: '<RouterView />' }, { global: { plugins: [router, createAppI18n('en-US')] } })
    await flushPromises()
    await router.push('/settings/about')
    await flushPromises()
    expect(seen).toContain('settings-nav-about')
  })

  it('brings a provider’s details into view when it is opened from the list', async () => {
    bridge = useRealBridge()
    setActivePinia(createPinia())
    for (const name of ['First', 'Second'])
      await bridge.presenters.llmProviders.addProvider({
        presetId: 'custom',
        name,
        baseUrl: 'http://127.0.0.1:9/v1',
        models: []
      })
    const wrapper = mount(ProvidersSettings, {
      global: { plugins: [createAppI18n('en-US')] },
      attachTo: document.body
    })
    await eventually(() => expect(wrapper.find('[data-testid="provider-detail"]').exists()).toBe(true))
    const scrolled: string[] = []
    vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: HTMLElement) {
      scrolled.push(this.getAttribute('data-testid') ?? '')
    })
    const second = (await bridge.presenters.llmProviders.listProviders()).find((p) => p.name === 'Second')!
    await wrapper.get(`[data-testid="provider-item-${second.id}"]`).trigger('click')
    await eventually(() => expect(wrapper.get('[data-testid="provider-detail-name"]').text()).toBe('Second'))
    // happy-dom's window is 1024 px wide: the stacked layout.
    expect(scrolled).toContain('provider-detail-pane')
    wrapper.unmount()
  })
})
