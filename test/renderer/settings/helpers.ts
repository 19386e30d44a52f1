import { afterEach } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import type { Component } from 'vue'
import { createAppI18n } from '@renderer/i18n'
import { useRealBridge } from '../helpers/realBridge'

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

/** Polls until `check` stops throwing (async back-end work like an MCP server starting). */
export async function eventually(check: () => void | Promise<void>, timeoutMs = 10_000): Promise<void> {
  const started = Date.now()
  for (;;) {
    try {
      await flushPromises()
      await check()
      return
    } catch (error) {
      if (Date.now() - started > timeoutMs) throw error
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
}
