import { defineStore } from 'pinia'
import { ref } from 'vue'
import { appGetInfo } from '@shared/contracts/routes/app.routes'
import type { AppInfo } from '@shared/types/app'
import { onConnectionChange, useBridge } from '@renderer/api/bridge'

export const useAppStore = defineStore('app', () => {
  const info = ref<AppInfo | null>(null)
  const connected = ref(true)
  onConnectionChange((value) => {
    connected.value = value
  })

  async function loadInfo(): Promise<void> {
    info.value = await useBridge().call(appGetInfo, {})
  }

  return { info, connected, loadInfo }
})
