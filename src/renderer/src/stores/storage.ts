import { defineStore } from 'pinia'
import { ref } from 'vue'
import { appStorageChanged } from '@shared/contracts/events/app.events'
import { appGetStorageStatus } from '@shared/contracts/routes/app.routes'
import type { StorageStatus } from '@shared/types/storage'
import { useBridge } from '@renderer/api/bridge'

/**
 * What the user must know about the data folder: it cannot be written now (disk full, read-only,
 * removed), and a damaged database this start moved aside.
 */
export const useStorageStore = defineStore('storage', () => {
  const status = ref<StorageStatus>({ fault: null, damaged: null })

  /** Reads the folder's state and follows its changes; returns the unsubscribe. */
  function follow(): () => void {
    const bridge = useBridge()
    const off = bridge.on(appStorageChanged, (next) => (status.value = next))
    bridge.call(appGetStorageStatus, {}).then(
      (next) => (status.value = next),
      () => undefined
    )
    return off
  }

  return { status, follow }
})
