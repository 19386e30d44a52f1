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
      const checking = () => listener({ type: 'checking' })
      const available = (info: { version: string }) => listener({ type: 'available', version: info.version })
      const notAvailable = () => listener({ type: 'not-available' })
      const progress = (info: { percent: number }) => listener({ type: 'progress', percent: info.percent })
      const downloaded = (info: { version: string }) =>
        listener({ type: 'downloaded', version: info.version })
      const failed = (error: Error) => listener({ type: 'error', message: error.message })
      autoUpdater
        .on('checking-for-update', checking)
        .on('update-available', available)
        .on('update-not-available', notAvailable)
        .on('download-progress', progress)
        .on('update-downloaded', downloaded)
        .on('error', failed)
      return () => {
        autoUpdater
          .off('checking-for-update', checking)
          .off('update-available', available)
          .off('update-not-available', notAvailable)
          .off('download-progress', progress)
          .off('update-downloaded', downloaded)
          .off('error', failed)
      }
    }
  }
}
