import { defineStore } from 'pinia'
import { ref } from 'vue'
import { appDeepLinkReceived, appUpdateChanged } from '@shared/contracts/events/app.events'
import {
  appGetDesktopStatus,
  appInstallUpdate,
  appResolveDeepLink
} from '@shared/contracts/routes/app.routes'
import type { RouteOutput } from '@shared/contracts/define'
import type { DeepLinkRequest, ShortcutStatus, UpdateStatus } from '@shared/types/desktop'
import { useBridge } from '@renderer/api/bridge'

/**
 * The desktop shell as the window sees it: the updater's state, the global shortcut, and
 * `deepchat-desk://` links waiting for the user's answer. In the headless host updates are
 * `disabled: headless` and nothing else ever arrives.
 */
export const useDesktopStore = defineStore('desktop', () => {
  const update = ref<UpdateStatus>({ state: 'disabled', reason: 'headless' })
  const shortcut = ref<ShortcutStatus | null>(null)
  const deepLinks = ref<DeepLinkRequest[]>([])
  const loaded = ref(false)
  let unsubscribers: Array<() => void> | undefined

  function addDeepLink(request: DeepLinkRequest): void {
    if (!deepLinks.value.some((pending) => pending.id === request.id)) deepLinks.value.push(request)
  }

  async function refresh(): Promise<void> {
    const status = await useBridge().call(appGetDesktopStatus, {})
    update.value = status.update
    shortcut.value = status.shortcut
    status.pendingDeepLinks.forEach(addDeepLink)
    loaded.value = true
  }

  /** Subscribes once, then reads what happened before the window was there (a link that started the app). */
  async function start(): Promise<void> {
    const bridge = useBridge()
    unsubscribers ??= [
      bridge.on(appUpdateChanged, ({ status }) => (update.value = status)),
      bridge.on(appDeepLinkReceived, ({ request }) => addDeepLink(request))
    ]
    await refresh()
  }

  async function installUpdate(): Promise<boolean> {
    return (await useBridge().call(appInstallUpdate, {})).restarting
  }

  async function resolveDeepLink(
    id: string,
    accept: boolean
  ): Promise<RouteOutput<typeof appResolveDeepLink>> {
    try {
      return await useBridge().call(appResolveDeepLink, { id, accept })
    } finally {
      deepLinks.value = deepLinks.value.filter((request) => request.id !== id)
    }
  }

  return { update, shortcut, deepLinks, loaded, start, refresh, installUpdate, resolveDeepLink }
})
