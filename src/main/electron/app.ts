import { app, BrowserWindow, dialog, globalShortcut, Menu, screen, session } from 'electron'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { AppCommand } from '@shared/types/desktop'
import type { Settings } from '@shared/types/settings'
import { appCommandInvoked } from '@shared/contracts/events/app.events'
import { configSettingsChanged } from '@shared/contracts/events/config.events'
import { networkSettingsChanged } from '@shared/contracts/events/network.events'
import { createElectronPlatform } from './electronPlatform'
import { attachIpcTransport } from './ipcTransport'
import {
  WINDOW_SIZE,
  createMainWindow,
  defaultWindowTarget,
  hardenWebContents,
  installContentSecurityPolicy,
  isTrustedRendererUrl,
  type WindowTarget
} from './mainWindow'
import { installPermissionHandlers } from './sessionPermissions'
import { loadWindowState, restoreWindowState, trackWindowState } from './windowState'
import { DesktopShell } from './desktopShell'
import { DEEP_LINK_SCHEME, deepLinkFromArgv } from './deepLinks'
import { buildAppMenuTemplate, buildTrayMenuTemplate } from './menus'
import { createAppTray, type AppTray } from './tray'
import { shellText } from './shellText'
import { notifyWhenWaiting } from './attention'
import { canSelfUpdate } from './updates/updateMachine'
import { createElectronUpdateFeed } from './updates/electronFeed'
import {
  appRootFromMainDir,
  bundledResources,
  sqliteNativeBinding,
  type AppLocation,
  type BundledResources
} from '../appResources'
import { APP_ID, APP_NAME } from '../appMeta'
import { shownUrl } from '../platform/externalUrl'
import { createPresenters, DATABASE_FILE, type Presenters } from '../presenter'
import { quickCheck } from '../presenter/sqlitePresenter/damaged'
import { createRouter } from '../routes'
import { lockDataFolder, type DataFolderLock } from '../presenter/hygiene/dataFolderLock'

const log = (message: string, error?: unknown) => console.error(message, error ?? '')

/** The Electron app: single instance, one window, tray, menus, shortcuts, links, updates. */
export function runElectronApp(mainDir: string): void {
  // Development runs and the smoke test may use another data folder (the lock is per folder).
  const dataDir = process.env.DEEPCHAT_DESK_DATA_DIR
  if (dataDir && !app.isPackaged) app.setPath('userData', dataDir)
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return
  }
  const location: AppLocation = {
    mode: app.isPackaged ? 'packaged' : 'dev',
    appRoot: appRootFromMainDir(mainDir),
    resourcesPath: process.resourcesPath
  }
  const resources = bundledResources(location)
  new DesktopApp(
    location,
    resources,
    defaultWindowTarget(mainDir, resources.windowIcon, location.mode)
  ).listen()
}

class DesktopApp {
  private presenters: Presenters | undefined
  private lock: DataFolderLock | undefined
  private settings: Settings | undefined
  private tray: AppTray | undefined
  private readonly cleanups: Array<() => void> = []
  private readonly shell: DesktopShell

  constructor(
    private readonly location: AppLocation,
    private readonly resources: BundledResources,
    private readonly target: WindowTarget
  ) {
    this.shell = new DesktopShell({
      mode: location.mode,
      updateSupported:
        location.mode === 'packaged' &&
        canSelfUpdate({
          platform: process.platform,
          resourcesPath: process.resourcesPath,
          env: process.env,
          exists: existsSync
        }),
      createUpdateFeed: () => createElectronUpdateFeed((message) => log(message)),
      shortcuts: globalShortcut,
      showWindow: () => this.showWindow(),
      restartApp: () => {
        app.relaunch()
        app.exit(0)
      },
      log: (message) => log(message)
    })
  }

  /** Registers everything that must exist before `ready` (macOS delivers links that early). */
  listen(): void {
    const firstLink = deepLinkFromArgv(process.argv)
    if (firstLink) this.shell.deepLinks.receive(firstLink)
    app.on('open-url', (event, url) => {
      event.preventDefault()
      this.shell.deepLinks.receive(url)
      if (app.isReady()) this.showWindow()
    })
    app.on('second-instance', (_event, argv) => {
      const link = deepLinkFromArgv(argv)
      if (link) this.shell.deepLinks.receive(link)
      this.showWindow()
    })
    app.on('activate', () => this.showWindow())
    app.on('web-contents-created', (_event, contents) =>
      hardenWebContents(
        contents,
        (url) => isTrustedRendererUrl(url, this.target),
        (url, reason) => this.linkRefused(url, reason)
      )
    )
    app.on('window-all-closed', () => {
      if (process.platform !== 'darwin') app.quit()
    })
    app.on('will-quit', () => this.dispose())
    void app.whenReady().then(async () => {
      try {
        // Electron's lock keeps one app per user; this one keeps a headless host off the same folder.
        const dataDir = app.getPath('userData')
        mkdirSync(dataDir, { recursive: true, mode: 0o700 })
        this.lock = await lockDataFolder(dataDir)
        const check = await quickCheck(join(dataDir, DATABASE_FILE), {
          budgetMs: 5000,
          nativeBinding: sqliteNativeBinding(this.location)
        })
        this.start(check.status === 'damaged' ? { reason: check.reason ?? 'damaged' } : null)
      } catch (error) {
        dialog.showErrorBox(
          `${APP_NAME} could not start`,
          error instanceof Error ? error.message : String(error)
        )
        app.exit(1)
      }
    })
  }

  /** `damagedDatabase`: the start's quick_check found the database damaged; it is moved aside. */
  private start(damagedDatabase: { reason: string } | null): void {
    installContentSecurityPolicy()
    installPermissionHandlers(session.defaultSession, (url) => isTrustedRendererUrl(url, this.target))
    if (this.location.mode === 'packaged') app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME)
    if (process.platform === 'win32') app.setAppUserModelId(APP_ID)
    const platform = createElectronPlatform({
      location: this.location,
      desktop: this.shell,
      onNotificationClick: () => this.showWindow()
    })
    const presenters = createPresenters(platform, {
      builtinSkillsDir: this.resources.skillsDir,
      resolveShellEnvAtLaunch: true,
      damagedDatabase
    })
    this.presenters = presenters
    presenters.backups.start()
    this.settings = presenters.config.getSettings()
    const router = createRouter(presenters, log)
    this.cleanups.push(
      attachIpcTransport({
        router,
        events: presenters.events,
        windows: () => BrowserWindow.getAllWindows(),
        isTrustedUrl: (url) => isTrustedRendererUrl(url, this.target)
      }),
      presenters.events.subscribe((name, payload) => {
        if (name === configSettingsChanged.name)
          this.onSettingsChanged(payload as { settings: Settings; changedKeys: string[] })
        if (name === networkSettingsChanged.name) this.applyProxy(presenters)
      }),
      notifyWhenWaiting({
        events: presenters.events,
        windowFocused: () => BrowserWindow.getFocusedWindow() !== null,
        notify: (title, body) => platform.notify(title, body),
        text: () => this.text()
      })
    )
    this.shell.connect(presenters.events, this.settings)
    this.applyProxy(presenters)
    // Chromium asks for the proxy's credentials (updates go through it); only a proxy is answered.
    app.on('login', (event, _webContents, _details, authInfo, callback) => {
      if (!authInfo.isProxy) return
      event.preventDefault()
      void presenters.network.proxyLogin().then(
        (login) => (login ? callback(login.username, login.password) : callback()),
        () => callback()
      )
    })
    this.createWindow()
    this.tray = createAppTray({
      icon: this.resources.trayIcon,
      tooltip: APP_NAME,
      menu: () => this.trayMenu()
    })
    this.rebuildMenus()
    this.exposeTestHooks()
  }

  /** Chromium's own requests (electron-updater's downloads) take the proxy of Settings › Network too. */
  private applyProxy(presenters: Presenters): void {
    session.defaultSession
      .setProxy(presenters.network.chromiumProxy())
      .catch((error: unknown) => log(`network: Chromium refused the proxy settings: ${String(error)}`))
  }

  private onSettingsChanged({ settings, changedKeys }: { settings: Settings; changedKeys: string[] }): void {
    this.settings = settings
    if (changedKeys.includes('language')) this.rebuildMenus()
  }

  /** A link that is not http(s) stays closed; the user is told which and why. */
  private linkRefused(url: string, reason: string): void {
    this.presenters?.platform.notify(this.text().linkRefusedTitle, `${shownUrl(url)}: ${reason}`)
  }

  private text() {
    return shellText(this.settings?.language ?? 'en-US')
  }

  private window(): BrowserWindow | undefined {
    return BrowserWindow.getAllWindows().find((window) => !window.isDestroyed())
  }

  private createWindow(): BrowserWindow {
    const stateFile = join(app.getPath('userData'), 'window-state.json')
    const restored = restoreWindowState(
      loadWindowState(stateFile),
      {
        workAreas: screen.getAllDisplays().map((d) => d.workArea),
        primary: screen.getPrimaryDisplay().workArea
      },
      WINDOW_SIZE
    )
    const window = createMainWindow(this.target, restored)
    trackWindowState(window, stateFile, (message) => log(message))
    for (const event of ['show', 'hide', 'closed'] as const)
      window.on(event as 'show', () => this.tray?.refresh())
    return window
  }

  /** Brings the window forward, creating it again if it was closed (macOS keeps running). */
  private showWindow(): BrowserWindow | undefined {
    if (!this.presenters) return undefined
    const window = this.window() ?? this.createWindow()
    if (window.isMinimized()) window.restore()
    window.show()
    window.focus()
    return window
  }

  private toggleWindow(): void {
    const window = this.window()
    if (window?.isVisible() && window.isFocused()) window.hide()
    else this.showWindow()
  }

  private sendCommand(command: AppCommand): void {
    this.showWindow()
    this.presenters?.events.emit(appCommandInvoked, { command })
  }

  private trayMenu() {
    return buildTrayMenuTemplate({
      text: this.text(),
      windowVisible: this.window()?.isVisible() ?? false,
      onToggleWindow: () => this.toggleWindow(),
      onCommand: (command) => this.sendCommand(command),
      onQuit: () => app.quit()
    })
  }

  private rebuildMenus(): void {
    const template = buildAppMenuTemplate({
      platform: process.platform,
      appName: APP_NAME,
      text: this.text(),
      dev: this.location.mode === 'dev',
      onCommand: (command) => this.sendCommand(command)
    })
    Menu.setApplicationMenu(Menu.buildFromTemplate(template))
    this.tray?.refresh()
  }

  /** The Electron smoke test (test/electron) reads the tray's menu through this; off otherwise. */
  private exposeTestHooks(): void {
    if (process.env.DEEPCHAT_DESK_TEST_HOOKS !== '1') return
    Object.assign(globalThis, {
      __deepchatDesk: {
        trayExists: () => Boolean(this.tray && !this.tray.tray.isDestroyed()),
        trayMenuLabels: () => this.trayMenu().map((item) => item.label ?? item.type ?? '')
      }
    })
  }

  private dispose(): void {
    this.shell.dispose()
    this.tray?.destroy()
    for (const cleanup of this.cleanups.splice(0)) cleanup()
    void Promise.resolve(this.presenters?.dispose()).finally(() => this.lock?.release())
  }
}
