import { defineStore } from 'pinia'
import { ref } from 'vue'
import {
  appChooseFolder,
  appGetInfo,
  appOpenExternal,
  appPickFolder
} from '@shared/contracts/routes/app.routes'
import { appCommandInvoked } from '@shared/contracts/events/app.events'
import type { AppInfo } from '@shared/types/app'
import type { AppCommand } from '@shared/types/desktop'
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

  /** The native folder dialog (desktop app only: elsewhere `{ supported: false }`); with a pick token. */
  function pickFolder(title: string, defaultPath?: string) {
    return useBridge().call(appPickFolder, { title, ...(defaultPath ? { defaultPath } : {}) })
  }

  /**
   * A typed folder as a pick (`{ path, token }`, null when the user cancelled the desktop dialog
   * that confirms it). Routes taking a folder accept only the token or a folder main already knows.
   */
  async function chooseFolder(path: string, title: string): Promise<{ path: string; token: string } | null> {
    const picked = await useBridge().call(appChooseFolder, { path, title })
    return picked.path && picked.token ? { path: picked.path, token: picked.token } : null
  }

  /** Opens an http(s) address in the system browser (the route refuses anything else). */
  function openExternal(url: string) {
    return useBridge().call(appOpenExternal, { url })
  }

  /** Menu, tray and shortcut commands of the desktop app; returns the unsubscribe. */
  function onCommand(handler: (command: AppCommand) => void): () => void {
    return useBridge().on(appCommandInvoked, ({ command }) => handler(command))
  }

  return { info, connected, loadInfo, pickFolder, chooseFolder, openExternal, onCommand }
})
