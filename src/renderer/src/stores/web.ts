import { defineStore } from 'pinia'
import { ref } from 'vue'
import {
  networkGetSettings,
  networkTestProxy,
  networkUpdateSettings
} from '@shared/contracts/routes/network.routes'
import { webSearchGetSettings, webSearchUpdateSettings } from '@shared/contracts/routes/webSearch.routes'
import type { NetworkSettingsPatch, NetworkSettingsView, ProxyTestResult } from '@shared/types/network'
import type { WebSearchSettingsPatch, WebSearchSettingsView } from '@shared/types/webSearch'
import { useBridge } from '@renderer/api/bridge'

/** Settings › Network (the proxy) and Settings › Web search. Secrets never come back: only whether one is stored. */
export const useWebStore = defineStore('web', () => {
  const network = ref<NetworkSettingsView | null>(null)
  const search = ref<WebSearchSettingsView | null>(null)

  async function loadNetwork(): Promise<NetworkSettingsView> {
    network.value = (await useBridge().call(networkGetSettings, {})).settings
    return network.value
  }

  async function saveNetwork(patch: NetworkSettingsPatch): Promise<NetworkSettingsView> {
    network.value = (await useBridge().call(networkUpdateSettings, { patch })).settings
    return network.value
  }

  async function testProxy(patch: NetworkSettingsPatch, url: string): Promise<ProxyTestResult> {
    return (await useBridge().call(networkTestProxy, { patch, url })).result
  }

  async function loadSearch(): Promise<WebSearchSettingsView> {
    search.value = (await useBridge().call(webSearchGetSettings, {})).settings
    return search.value
  }

  async function saveSearch(patch: WebSearchSettingsPatch): Promise<WebSearchSettingsView> {
    search.value = (await useBridge().call(webSearchUpdateSettings, { patch })).settings
    return search.value
  }

  return { network, search, loadNetwork, saveNetwork, testProxy, loadSearch, saveSearch }
})
