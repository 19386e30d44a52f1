import { BrowserWindow, session, shell } from 'electron'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { CONTENT_SECURITY_POLICY } from '../security'

export interface WindowTarget {
  /** Dev server URL in `npm run dev`, else the built index.html. */
  devServerUrl?: string
  rendererIndex: string
  preload: string
  icon: string
}

export function isTrustedRendererUrl(url: string, target: WindowTarget): boolean {
  if (target.devServerUrl && url.startsWith(target.devServerUrl)) return true
  return url.split('#')[0] === pathToFileURL(target.rendererIndex).href
}

/** Sends the CSP with every response in the default session (file:// included). */
export function installContentSecurityPolicy(): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] }
    })
  })
}

export function createMainWindow(target: WindowTarget): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'DeepChat Desk',
    icon: target.icon,
    webPreferences: {
      preload: target.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false
    }
  })
  window.once('ready-to-show', () => window.show())

  // No new windows; http(s) links open in the user's browser, anything else is dropped.
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//i.test(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  window.webContents.on('will-navigate', (event, url) => {
    if (isTrustedRendererUrl(url, target)) return
    event.preventDefault()
    if (/^https?:\/\//i.test(url)) void shell.openExternal(url)
  })

  if (target.devServerUrl) void window.loadURL(target.devServerUrl)
  else void window.loadFile(target.rendererIndex)
  return window
}

export function defaultWindowTarget(mainDir: string): WindowTarget {
  return {
    devServerUrl: process.env.ELECTRON_RENDERER_URL,
    rendererIndex: join(mainDir, '../renderer/index.html'),
    preload: join(mainDir, '../preload/index.cjs'),
    icon: join(mainDir, '../../resources/icon.png')
  }
}
