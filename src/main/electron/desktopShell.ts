import type { DesktopStatus, UpdateStatus } from '@shared/types/desktop'
import type { Settings } from '@shared/types/settings'
import { appDeepLinkReceived, appUpdateChanged } from '@shared/contracts/events/app.events'
import { configSettingsChanged } from '@shared/contracts/events/config.events'
import type { EventHub, EventSink } from '../bridge/events'
import type { DesktopPort, PendingDeepLink } from '../platform/types'
import type { RunMode } from '../appResources'
import { DeepLinkInbox } from './deepLinks'
import { ShortcutBinding, type ShortcutRegistry } from './shortcutBinding'
import { Updater, updatesUnavailableReason, type UpdateFeed } from './updates/updateMachine'

export interface DesktopShellDeps {
  mode: RunMode
  /** Whether the installed package can update itself (updates/updateMachine.ts canSelfUpdate). */
  updateSupported: boolean
  createUpdateFeed: () => UpdateFeed
  shortcuts: ShortcutRegistry
  /** The global shortcut was pressed. */
  showWindow: () => void
  /** Quits and starts the app again (Electron's relaunch + exit). */
  restartApp: () => void
  log: (message: string) => void
}

/**
 * The desktop app's own services behind `Platform.desktop`: updates, the global shortcut, and
 * `deepchat-desk://` links waiting for the user. It exists before the presenters (a link can
 * start the app); `connect` hands it the event sink and the settings once they do.
 */
export class DesktopShell implements DesktopPort {
  readonly deepLinks: DeepLinkInbox
  private readonly shortcut: ShortcutBinding
  private updater: Updater | undefined
  private events: EventSink | undefined
  private unsubscribe: (() => void) | undefined

  constructor(private readonly deps: DesktopShellDeps) {
    // Before `connect` a link is only kept; the window reads pending links when it opens.
    this.deepLinks = new DeepLinkInbox({
      onReceived: (request) => this.events?.emit(appDeepLinkReceived, { request })
    })
    this.shortcut = new ShortcutBinding(deps.shortcuts, deps.showWindow)
  }

  /** Starts updates and the shortcut from the settings, and follows their changes. */
  connect(events: EventHub, settings: Settings): void {
    this.events = events
    this.unsubscribe = events.subscribe((name, payload) => {
      if (name !== configSettingsChanged.name) return
      const change = payload as { settings: Settings; changedKeys: string[] }
      this.settingsChanged(change.settings, change.changedKeys)
    })
    this.updater = new Updater({
      mode: this.deps.mode,
      supported: this.deps.updateSupported,
      enabled: settings.autoUpdate,
      createFeed: this.deps.createUpdateFeed,
      onChange: (status) => events.emit(appUpdateChanged, { status }),
      log: this.deps.log
    })
    this.updater.start()
    this.applyShortcut(settings.globalShortcut)
  }

  private settingsChanged(settings: Settings, changedKeys: readonly string[]): void {
    if (changedKeys.includes('autoUpdate')) this.updater?.setEnabled(settings.autoUpdate)
    if (changedKeys.includes('globalShortcut')) this.applyShortcut(settings.globalShortcut)
  }

  status(): DesktopStatus {
    const update: UpdateStatus = this.updater?.status ??
      updatesUnavailableReason(this.deps.mode, this.deps.updateSupported) ?? {
        state: 'idle',
        lastCheckedAt: null
      }
    return { update, shortcut: this.shortcut.status, pendingDeepLinks: this.deepLinks.list() }
  }

  installUpdate(): boolean {
    return this.updater?.install() ?? false
  }

  relaunch(): boolean {
    // After the route's reply has gone out: exiting at once would cut it off.
    setTimeout(() => this.deps.restartApp(), 250)
    return true
  }

  takeDeepLink(id: string): PendingDeepLink | undefined {
    return this.deepLinks.take(id)
  }

  dispose(): void {
    this.unsubscribe?.()
    this.updater?.stop()
    this.shortcut.release()
  }

  private applyShortcut(accelerator: string): void {
    const status = this.shortcut.apply(accelerator)
    if (status?.problem) this.deps.log(`global shortcut ${status.accelerator}: ${status.problem}`)
  }
}
