import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import UpdateBanner from '@renderer/components/desktop/UpdateBanner.vue'
import { useDesktopStore } from '@renderer/stores/desktop'
import { createAppI18n } from '@renderer/i18n'
import { useDesktopBridge } from './desktopHarness'
import { useRealBridge } from '../helpers/realBridge'

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
})

async function mountBanner() {
  const pinia = createPinia()
  setActivePinia(pinia)
  await useDesktopStore().start()
  const wrapper = mount(UpdateBanner, { global: { plugins: [pinia, createAppI18n('en-US')] } })
  await flushPromises()
  return wrapper
}

describe('Restart to update', () => {
  it('appears once an update is downloaded and restarts into it', async () => {
    const bridge = useDesktopBridge({ latest: '0.2.0' })
    dispose = bridge.dispose
    const wrapper = await mountBanner()
    expect(wrapper.get('[data-testid="update-banner"]').text()).toContain(
      'DeepChat Desk 0.2.0 is ready to install.'
    )
    await wrapper.get('[data-testid="update-restart"]').trigger('click')
    await flushPromises()
    expect(bridge.feed.installs).toBe(1)
  })

  it('stays hidden when there is no update, and in the headless host', async () => {
    const desktop = useDesktopBridge()
    dispose = desktop.dispose
    expect((await mountBanner()).find('[data-testid="update-banner"]').exists()).toBe(false)
    await desktop.dispose()
    const headless = useRealBridge()
    dispose = headless.dispose
    const wrapper = await mountBanner()
    expect(wrapper.find('[data-testid="update-banner"]').exists()).toBe(false)
    expect(useDesktopStore().update).toEqual({ state: 'disabled', reason: 'headless' })
  })
})
