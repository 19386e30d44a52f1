import { app, BrowserWindow } from 'electron'
import { join } from 'node:path'
import { createElectronPlatform } from './electronPlatform'
import { attachIpcTransport } from './ipcTransport'
import { createMainWindow, defaultWindowTarget, installContentSecurityPolicy, isTrustedRendererUrl } from './mainWindow'
import { createPresenters, type Presenters } from '../presenter'
import { createRouter } from '../routes'

/** The Electron app: single instance, one window, the IPC transport into the shared router. */
export function runElectronApp(mainDir: string): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return
  }
  const target = defaultWindowTarget(mainDir)
  let presenters: Presenters | undefined
  let detach: (() => void) | undefined

  const focusOrCreate = () => {
    const [existing] = BrowserWindow.getAllWindows()
    if (existing) {
      if (existing.isMinimized()) existing.restore()
      existing.focus()
    } else {
      createMainWindow(target)
    }
  }

  app.on('second-instance', focusOrCreate)
  app.on('activate', focusOrCreate)
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  app.on('will-quit', () => {
    detach?.()
    void presenters?.dispose()
  })

  void app.whenReady().then(() => {
    installContentSecurityPolicy()
    presenters = createPresenters(createElectronPlatform({ appRoot: join(mainDir, '../..') }), {
      builtinSkillsDir: join(mainDir, '../../resources/skills'),
      resolveShellEnvAtLaunch: true
    })
    const router = createRouter(presenters, (message, error) => console.error(message, error ?? ''))
    detach = attachIpcTransport({
      router,
      events: presenters.events,
      windows: () => BrowserWindow.getAllWindows(),
      isTrustedUrl: (url) => isTrustedRendererUrl(url, target)
    })
    createMainWindow(target)
  })
}
