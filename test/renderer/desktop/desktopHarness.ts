import type { FeedEvent, UpdateFeed } from '../../../src/main/electron/updates/updateMachine'
import { DesktopShell } from '../../../src/main/electron/desktopShell'
import type { ShortcutRegistry } from '../../../src/main/electron/shortcutBinding'
import { useRealBridge } from '../helpers/realBridge'

/** electron-updater stand-in whose release the test publishes. */
export class ScriptedFeed implements UpdateFeed {
  latest: string | null = null
  installs = 0
  private listener: ((event: FeedEvent) => void) | undefined
  subscribe(listener: (event: FeedEvent) => void) {
    this.listener = listener
    return () => (this.listener = undefined)
  }
  async check() {
    this.listener?.(this.latest ? { type: 'available', version: this.latest } : { type: 'not-available' })
  }
  async download() {
    this.listener?.({ type: 'downloaded', version: this.latest! })
  }
  quitAndInstall() {
    this.installs++
  }
}

/** Electron's globalShortcut stand-in: `taken` accelerators belong to another app. */
export class FakeShortcuts implements ShortcutRegistry {
  readonly registered = new Set<string>()
  readonly taken = new Set<string>()
  register(accelerator: string) {
    if (this.taken.has(accelerator)) return false
    this.registered.add(accelerator)
    return true
  }
  unregister(accelerator: string) {
    this.registered.delete(accelerator)
  }
}

/**
 * The real back end with the real desktop shell (as the packaged Electron app wires it), minus
 * Electron itself: updates come from a scripted feed, shortcuts go to a fake registry.
 */
export function useDesktopBridge(options: { latest?: string } = {}) {
  const feed = new ScriptedFeed()
  feed.latest = options.latest ?? null
  const shortcuts = new FakeShortcuts()
  const shell = new DesktopShell({
    mode: 'packaged',
    updateSupported: true,
    createUpdateFeed: () => feed,
    shortcuts,
    showWindow: () => {},
    restartApp: () => {},
    log: () => {}
  })
  const bridge = useRealBridge({ desktop: shell })
  shell.connect(bridge.presenters.events, bridge.presenters.config.getSettings())
  return {
    ...bridge,
    shell,
    feed,
    shortcuts,
    async dispose() {
      shell.dispose()
      await bridge.dispose()
    }
  }
}
