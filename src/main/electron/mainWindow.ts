import { BrowserWindow, session, type WebContents } from 'electron'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { CONTENT_SECURITY_POLICY } from '../security'
import { APP_NAME } from '../appMeta'
import { checkExternalUrl } from '../platform/externalUrl'
import { openInBrowser } from './openInBrowser'
import type { RestoredWindowState } from './windowState'
import type { RunMode } from '../appResources'

export interface WindowTarget {
  /** Dev server URL in `npm run dev`, else the built index.html. */
  devServerUrl?: string
  rendererIndex: string
  preload: string
  icon: string
}

export const WINDOW_SIZE = { width: 1200, height: 800, minWidth: 720, minHeight: 480 }

export function isTrustedRendererUrl(url: string, target: WindowTarget): boolean {
  if (target.devServerUrl && originOf(url) === originOf(target.devServerUrl)) return true
  return url.split('#')[0] === pathToFileURL(target.rendererIndex).href
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}

/** Sends the CSP with every response in the default session (file:// included). */
export function installContentSecurityPolicy(): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] }
    })
  })
}

/** Why a link was not opened, for the user: the address and the reason. */
export type RefusedLink = (url: string, reason: string) => void

/**
 * Applied to every webContents the app creates: no new windows (http(s) links open in the
 * user's browser, anything else is refused and `onRefused` tells the user why), no navigation
 * or redirect away from our page, no <webview>.
 */
export function hardenWebContents(
  contents: WebContents,
  isTrustedUrl: (url: string) => boolean,
  onRefused: RefusedLink = () => {}
): void {
  const openIfWeb = (url: string) => {
    const check = checkExternalUrl(url)
    if (check.ok) void openInBrowser(check.href).catch(() => undefined)
    else onRefused(url, check.reason)
  }
  contents.setWindowOpenHandler(({ url }) => {
    openIfWeb(url)
    return { action: 'deny' }
  })
  const guard = (event: { preventDefault(): void }, url: string) => {
    if (isTrustedUrl(url)) return
    event.preventDefault()
    openIfWeb(url)
  }
  contents.on('will-navigate', guard)
  contents.on('will-redirect', guard)
  contents.on('will-attach-webview', (event) => event.preventDefault())
}

export function createMainWindow(target: WindowTarget, state: RestoredWindowState): BrowserWindow {
  const window = new BrowserWindow({
    ...state.bounds,
    minWidth: WINDOW_SIZE.minWidth,
    minHeight: WINDOW_SIZE.minHeight,
    show: false,
    title: APP_NAME,
    icon: target.icon,
    webPreferences: {
      preload: target.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false
    }
  })
  window.once('ready-to-show', () => {
    if (state.maximized) window.maximize()
    window.show()
  })
  // The page's <title> would replace the product name; the window keeps it.
  window.on('page-title-updated', (event) => event.preventDefault())

  if (target.devServerUrl) void window.loadURL(target.devServerUrl)
  else void window.loadFile(target.rendererIndex)
  return window
}

/**
 * electron-vite's dev server, only in a development run and only on loopback: an installed app
 * never loads its UI (and the bridge) from an address an environment variable names.
 */
export function devServerUrl(env: NodeJS.ProcessEnv, mode: RunMode): string | undefined {
  const url = env.ELECTRON_RENDERER_URL
  if (mode !== 'dev' || !url) return undefined
  return /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/|$)/.test(url) ? url : undefined
}

export function defaultWindowTarget(mainDir: string, icon: string, mode: RunMode): WindowTarget {
  return {
    devServerUrl: devServerUrl(process.env, mode),
    rendererIndex: join(mainDir, '../renderer/index.html'),
    preload: join(mainDir, '../preload/index.cjs'),
    icon
  }
}
