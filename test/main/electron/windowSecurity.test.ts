import { describe, expect, it, vi } from 'vitest'

// The Electron binary is not available to tests: BrowserWindow, shell and webContents are
// recorders, so the app's own security decisions run for real against them.
const opened: string[] = []
const windows: Array<{ options: Record<string, unknown>; loaded: string[] }> = []
vi.mock('electron', () => ({
  shell: { openExternal: async (url: string) => void opened.push(url) },
  session: { defaultSession: {} },
  BrowserWindow: class {
    loaded: string[] = []
    constructor(readonly options: Record<string, unknown>) {
      windows.push(this as never)
    }
    once() {}
    on() {}
    loadFile(file: string) {
      this.loaded.push(file)
      return Promise.resolve()
    }
    loadURL(url: string) {
      this.loaded.push(url)
      return Promise.resolve()
    }
  }
}))

const { createMainWindow, devServerUrl, hardenWebContents, isTrustedRendererUrl } =
  await import('../../../src/main/electron/mainWindow')
const { installPermissionHandlers, isWebPermissionAllowed } =
  await import('../../../src/main/electron/sessionPermissions')

const target = {
  rendererIndex: '/app/out/renderer/index.html',
  preload: '/app/out/preload/index.cjs',
  icon: '/i.png'
}
const trusted = (url: string) => isTrustedRendererUrl(url, target)

function fakeContents() {
  const handlers = new Map<string, (event: { preventDefault(): void }, url: string) => void>()
  let openHandler: ((details: { url: string }) => { action: string }) | undefined
  const contents = {
    setWindowOpenHandler: (fn: typeof openHandler) => (openHandler = fn),
    on: (name: string, fn: (event: { preventDefault(): void }, url: string) => void) => handlers.set(name, fn)
  }
  const fire = (name: string, url = '') => {
    let prevented = false
    handlers.get(name)!({ preventDefault: () => (prevented = true) }, url)
    return prevented
  }
  return { contents, fire, open: (url: string) => openHandler!({ url }) }
}

describe('the main window’s security settings', () => {
  it('isolates the page: context isolation, sandbox, no Node, web security, no webview', () => {
    createMainWindow(target, { bounds: { width: 900, height: 700 }, maximized: false })
    const prefs = windows.at(-1)!.options.webPreferences as Record<string, unknown>
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: target.preload
    })
    expect(windows.at(-1)!.loaded).toEqual([target.rendererIndex])
  })

  it('opens no windows and navigates nowhere but the app; web links go to the browser', () => {
    opened.length = 0
    const refused: string[] = []
    const { contents, fire, open } = fakeContents()
    hardenWebContents(contents as never, trusted, (url, reason) => refused.push(`${url} ${reason}`))
    expect(open('https://example.com/docs')).toEqual({ action: 'deny' })
    expect(open('file:///etc/passwd')).toEqual({ action: 'deny' })
    expect(fire('will-navigate', 'https://evil.example/')).toBe(true)
    expect(fire('will-redirect', 'file:///home/me/other.html')).toBe(true)
    expect(fire('will-navigate', 'file:///app/out/renderer/index.html#/settings')).toBe(false)
    expect(fire('will-attach-webview')).toBe(true)
    expect(open('smb://attacker.example/share')).toEqual({ action: 'deny' })
    expect(open('https://user:pw@example.com/')).toEqual({ action: 'deny' })
    expect(opened).toEqual(['https://example.com/docs', 'https://evil.example/'])
    // Refused links are told to the user with the reason (the app shows a notification).
    expect(refused).toEqual([
      'file:///etc/passwd only http and https links open outside the app, not file:',
      'file:///home/me/other.html only http and https links open outside the app, not file:',
      'smb://attacker.example/share only http and https links open outside the app, not smb:',
      'https://user:pw@example.com/ the address carries a user name or password'
    ])
  })

  it('loads a dev server only in a development run and only from loopback', () => {
    expect(devServerUrl({ ELECTRON_RENDERER_URL: 'http://localhost:5173' }, 'dev')).toBe(
      'http://localhost:5173'
    )
    expect(devServerUrl({ ELECTRON_RENDERER_URL: 'http://localhost:5173' }, 'packaged')).toBeUndefined()
    expect(devServerUrl({ ELECTRON_RENDERER_URL: 'https://evil.example/' }, 'dev')).toBeUndefined()
    expect(devServerUrl({ ELECTRON_RENDERER_URL: 'http://localhost.evil.example/' }, 'dev')).toBeUndefined()
    const dev = { ...target, devServerUrl: 'http://localhost:5173' }
    expect(isTrustedRendererUrl('http://localhost:5173/#/chat', dev)).toBe(true)
    expect(isTrustedRendererUrl('http://localhost:51730/', dev)).toBe(false)
  })
})

describe('web permissions', () => {
  it('allows the app’s page notifications and clipboard writes, and nothing else to anyone', () => {
    const app = 'file:///app/out/renderer/index.html'
    expect(isWebPermissionAllowed('notifications', app, trusted)).toBe(true)
    expect(isWebPermissionAllowed('clipboard-sanitized-write', `${app}#/chat/1`, trusted)).toBe(true)
    for (const denied of [
      'media',
      'geolocation',
      'clipboard-read',
      'hid',
      'usb',
      'serial',
      'midiSysex',
      'openExternal',
      'fullscreen'
    ]) {
      expect(isWebPermissionAllowed(denied, app, trusted), denied).toBe(false)
    }
    expect(isWebPermissionAllowed('notifications', 'https://evil.example/', trusted)).toBe(false)
    expect(isWebPermissionAllowed('notifications', undefined, trusted)).toBe(false)
  })

  it('installs deny-by-default handlers for requests, checks and devices', () => {
    const handlers: Record<string, (...args: unknown[]) => unknown> = {}
    const session = {
      setPermissionRequestHandler: (fn: never) => (handlers.request = fn),
      setPermissionCheckHandler: (fn: never) => (handlers.check = fn),
      setDevicePermissionHandler: (fn: never) => (handlers.device = fn)
    }
    installPermissionHandlers(session as never, trusted)
    const contents = { getURL: () => 'file:///app/out/renderer/index.html' }
    const answers: boolean[] = []
    handlers.request(contents, 'media', (ok: boolean) => answers.push(ok), {
      requestingUrl: contents.getURL()
    })
    handlers.request(contents, 'notifications', (ok: boolean) => answers.push(ok), {
      requestingUrl: contents.getURL()
    })
    expect(answers).toEqual([false, true])
    expect(handlers.check(contents, 'clipboard-sanitized-write', 'file://', {})).toBe(true)
    expect(
      handlers.check(null, 'notifications', 'https://evil.example', {
        requestingUrl: 'https://evil.example/'
      })
    ).toBe(false)
    expect(handlers.device()).toBe(false)
  })
})
