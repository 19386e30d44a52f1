import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import GeneralSettings from '@renderer/pages/settings/GeneralSettings.vue'
import { useSettingsStore } from '@renderer/stores/settings'
import { createAppI18n } from '@renderer/i18n'
import { useRealBridge } from './helpers/realBridge'

let bridge: ReturnType<typeof useRealBridge> | undefined
afterEach(async () => {
  await bridge?.dispose()
  bridge = undefined
})

async function mountPage() {
  bridge = useRealBridge()
  const pinia = createPinia()
  setActivePinia(pinia)
  await useSettingsStore().load()
  const wrapper = mount(GeneralSettings, { global: { plugins: [pinia, createAppI18n('en-US')] } })
  await flushPromises()
  return wrapper
}

describe('Settings > General', () => {
  it('saves an existing folder as the default workspace, explains a missing one and clears it', async () => {
    const wrapper = await mountPage()
    const folder = mkdtempSync(join(tmpdir(), 'general-ws-'))
    await wrapper.get('[data-testid="default-workspace"]').setValue(join(folder, 'missing'))
    await wrapper.get('[data-testid="default-workspace-save"]').trigger('submit')
    await flushPromises()
    expect(wrapper.get('[data-testid="settings-status"]').text()).toContain('does not exist')
    expect(bridge!.presenters.config.getSettings().defaultWorkspaceDir).toBe('')

    await wrapper.get('[data-testid="default-workspace"]').setValue(folder)
    await wrapper.get('form').trigger('submit')
    await flushPromises()
    expect(bridge!.presenters.config.getSettings().defaultWorkspaceDir).toBe(folder)
    expect(wrapper.get('[data-testid="settings-status"]').text()).toBe('Default workspace saved.')
    await wrapper.get('[data-testid="default-workspace-clear"]').trigger('click')
    await flushPromises()
    expect(bridge!.presenters.config.getSettings().defaultWorkspaceDir).toBe('')
    expect((wrapper.get('[data-testid="default-workspace"]').element as HTMLInputElement).value).toBe('')
  })

  it('shows the stored language and theme', async () => {
    const wrapper = await mountPage()
    expect((wrapper.get('[data-testid="language-select"]').element as HTMLSelectElement).value).toBe('en-US')
    expect(wrapper.get('[data-testid="theme-system"]').attributes('aria-checked')).toBe('true')
  })

  it('switches model-named chat titles off and on through the bridge', async () => {
    const wrapper = await mountPage()
    const toggle = wrapper.get('[data-testid="auto-title"]')
    expect((toggle.element as HTMLInputElement).checked).toBe(true)
    await toggle.setValue(false)
    await flushPromises()
    expect(bridge!.presenters.config.getSettings().autoTitle).toBe(false)
    await toggle.setValue(true)
    await flushPromises()
    expect(bridge!.presenters.config.getSettings().autoTitle).toBe(true)
  })

  it('saves the theme through the bridge and marks it selected', async () => {
    const wrapper = await mountPage()
    await wrapper.get('[data-testid="theme-dark"]').trigger('click')
    await flushPromises()
    expect(bridge!.presenters.config.getSettings().theme).toBe('dark')
    expect(wrapper.get('[data-testid="theme-dark"]').attributes('aria-checked')).toBe('true')
    expect(wrapper.get('[data-testid="settings-status"]').text()).toBe('Saved')
  })

  it('saves the language', async () => {
    const wrapper = await mountPage()
    await wrapper.get('[data-testid="language-select"]').setValue('zh-CN')
    await flushPromises()
    expect(bridge!.presenters.config.getSettings().language).toBe('zh-CN')
  })

  it('follows changes made elsewhere (the settings event)', async () => {
    const wrapper = await mountPage()
    bridge!.presenters.config.updateSettings({ theme: 'light' })
    await flushPromises()
    expect(wrapper.get('[data-testid="theme-light"]').attributes('aria-checked')).toBe('true')
  })
})
