import { afterEach } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import type { Component } from 'vue'
import { createAppI18n } from '@renderer/i18n'
import { useRealBridge } from '../helpers/realBridge'
import { until } from '../../helpers/until'

/** Each test gets the real back end on a temp dir, torn down afterwards. */
export function useSettingsPage(): (
  page: Component
) => Promise<{ wrapper: ReturnType<typeof mount>; bridge: ReturnType<typeof useRealBridge> }> {
  let bridge: ReturnType<typeof useRealBridge> | undefined
  let activePinia: ReturnType<typeof createPinia> | undefined
  let unmount: (() => void) | undefined
  afterEach(async () => {
    unmount?.()
    // Stores stop listening before the back end shuts down and announces its servers stopping.
    for (const store of (
      activePinia as unknown as { _s: Map<string, { dispose?: () => void }> } | undefined
    )?._s.values() ?? [])
      store.dispose?.()
    await bridge?.dispose()
    bridge = undefined
  })
  return async (page) => {
    bridge = useRealBridge()
    const pinia = createPinia()
    setActivePinia(pinia)
    activePinia = pinia
    const wrapper = mount(page, {
      global: { plugins: [pinia, createAppI18n('en-US')] },
      attachTo: document.body
    })
    unmount = () => wrapper.unmount()
    await flushPromises()
    return { wrapper, bridge }
  }
}

/**
 * Waits until `check` passes (async back-end work like an MCP server starting): `until`, with
 * Vue's pending updates flushed before each look.
 */
export function eventually(check: () => unknown, timeoutMs = 10_000): Promise<void> {
  return until(
    async () => {
      await flushPromises()
      return check()
    },
    { what: 'the page showed it', timeoutMs }
  )
}
