import electronUpdater from 'electron-updater'
import type { FeedEvent, UpdateFeed } from './updateMachine'

/**
 * electron-updater behind the UpdateFeed interface: the GitHub releases feed named in
 * electron-builder.yml `publish` (baked into the app as app-update.yml). Downloads start when the
 * Updater asks, and a downloaded update also installs when the app quits.
 */
export function createElectronUpdateFeed(log: (message: string) => void): UpdateFeed {
  const { autoUpdater } = electronUpdater
  autoUpdater.autoDownload = false
  autoUpdater.autoInstallOnAppQuit = true
  autoUpdater.logger = { info: () => {}, warn: (m: unknown) => log(`update: ${String(m)}`), error: () => {} }
  return {
    async check() {
      await autoUpdater.checkForUpdates()
    },
    async download() {
      await autoUpdater.downloadUpdate()
    },
    quitAndInstall() {
      autoUpdater.quitAndInstall()
    },
    subscribe(listener: (event: FeedEvent) => void) {
      const handlers = {
        'checking-for-update': () => listener({ type: 'checking' }),
        'update-available': (info: { version: string }) =>
          listener({ type: 'available', version: info.version }),
        'update-not-available': () => listener({ type: 'not-available' }),
        'download-progress': (progress: { percent: number }) =>
          listener({ type: 'progress', percent: progress.percent }),
        'update-downloaded': (info: { version: string }) =>
          listener({ type: 'downloaded', version: info.version }),
        error: (error: Error) => listener({ type: 'error', message: error.message })
      }
      for (const [name, handler] of Object.entries(handlers))
        autoUpdater.on(name as 'error', handler as never)
      return () => {
        for (const [name, handler] of Object.entries(handlers))
          autoUpdater.off(name as 'error', handler as never)
      }
    }
  }
}
