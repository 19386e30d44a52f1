import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { configGetSettings, configUpdateSettings } from '@shared/contracts/routes/config.routes'
import { configSettingsChanged } from '@shared/contracts/events/config.events'
import type { Settings, SettingsPatch } from '@shared/types/settings'
import { useBridge } from '@renderer/api/bridge'
import { useLoadState } from './lib/loadState'

/** Settings mirrored from main; main is the source of truth and announces every change. */
export const useSettingsStore = defineStore('settings', () => {
  const settings = ref<Settings | null>(null)
  const { error, track } = useLoadState()
  const systemPrefersDark = ref(window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false)
  let unsubscribe: (() => void) | undefined

  const effectiveTheme = computed<'light' | 'dark'>(() => {
    const theme = settings.value?.theme ?? 'system'
    if (theme === 'system') return systemPrefersDark.value ? 'dark' : 'light'
    return theme
  })

  async function load(): Promise<void> {
    const bridge = useBridge()
    unsubscribe ??= bridge.on(configSettingsChanged, ({ settings: next }) => {
      settings.value = next
    })
    window.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', (event) => {
      systemPrefersDark.value = event.matches
    })
    await track(async () => {
      settings.value = (await bridge.call(configGetSettings, {})).settings
    })
  }

  async function update(patch: SettingsPatch): Promise<void> {
    settings.value = (await useBridge().call(configUpdateSettings, { patch })).settings
  }

  return { settings, error, effectiveTheme, load, update }
})
