import { app, BrowserWindow, dialog, Notification, safeStorage } from 'electron'
import { join } from 'node:path'
import { FileSecretStore, type SecretCodec } from '../platform/fileSecretStore'
import type { DesktopPort, PickFolderOptions, Platform } from '../platform/types'
import { APP_NAME, APP_VERSION } from '../appMeta'
import { sqliteNativeBinding, type AppLocation } from '../appResources'
import { openInBrowser } from './openInBrowser'

/** Encrypts each secret with the OS keychain; refuses to store in clear when that is missing. */
const safeStorageCodec: SecretCodec = {
  encode(plain) {
    if (!safeStorage.isEncryptionAvailable())
      throw new Error('OS secret storage is unavailable; secret not saved')
    return safeStorage.encryptString(plain).toString('base64')
  },
  decode(stored) {
    return safeStorage.decryptString(Buffer.from(stored, 'base64'))
  }
}

export function createElectronPlatform(options: {
  location: AppLocation
  desktop: DesktopPort
  /** A click on one of the app's notifications (brings the window forward). */
  onNotificationClick: () => void
}): Platform {
  const userDataDir = app.getPath('userData')
  const secretsFile = join(userDataDir, 'secrets.enc.json')
  return {
    kind: 'electron',
    appName: APP_NAME,
    appVersion: APP_VERSION,
    userDataDir,
    versions: {
      node: process.versions.node,
      electron: process.versions.electron ?? null,
      chrome: process.versions.chrome ?? null
    },
    secrets: new FileSecretStore(secretsFile, safeStorageCodec),
    secretsFile,
    openExternal: openInBrowser,
    notify(title, body) {
      if (!Notification.isSupported()) return
      const notification = new Notification({ title, body })
      notification.on('click', options.onNotificationClick)
      notification.show()
    },
    pickFolder,
    pickFiles,
    sqliteNativeBinding: sqliteNativeBinding(options.location),
    desktop: options.desktop
  }
}

/** Opens over the focused window (modal to it) so the choice belongs to the chat that asked. */
async function pickFolder(options: PickFolderOptions): Promise<string | null> {
  const dialogOptions: Electron.OpenDialogOptions = {
    title: options.title,
    defaultPath: options.defaultPath,
    properties: ['openDirectory', 'createDirectory']
  }
  const window = BrowserWindow.getFocusedWindow()
  const result = window
    ? await dialog.showOpenDialog(window, dialogOptions)
    : await dialog.showOpenDialog(dialogOptions)
  return result.canceled ? null : (result.filePaths[0] ?? null)
}

/** Attachments: several files at once, over the focused window like the folder dialog. */
async function pickFiles(options: { title?: string }): Promise<string[]> {
  const dialogOptions: Electron.OpenDialogOptions = {
    title: options.title,
    properties: ['openFile', 'multiSelections']
  }
  const window = BrowserWindow.getFocusedWindow()
  const result = window
    ? await dialog.showOpenDialog(window, dialogOptions)
    : await dialog.showOpenDialog(dialogOptions)
  return result.canceled ? [] : result.filePaths
}
