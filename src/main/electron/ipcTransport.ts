import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron'
import { BridgeErrorCode, type RouteResult } from '@shared/contracts/envelope'
import type { Router } from '../bridge/router'
import type { EventHub } from '../bridge/events'

export const ROUTE_CHANNEL = 'deepchat:route'
export const EVENT_CHANNEL = 'deepchat:event'

/**
 * The Electron transport: one `ipcMain.handle` channel into the shared router, events out with
 * `webContents.send`. Calls from any frame other than the main frame of one of our windows
 * showing our own UI are refused.
 */
export function attachIpcTransport(options: {
  router: Router
  events: EventHub
  windows: () => BrowserWindow[]
  isTrustedUrl: (url: string) => boolean
}): () => void {
  ipcMain.handle(ROUTE_CHANNEL, async (event: IpcMainInvokeEvent, message: unknown): Promise<RouteResult> => {
    if (!isTrustedSender(event, options)) {
      return { ok: false, error: { code: BridgeErrorCode.transport, message: 'untrusted sender' } }
    }
    const { route, input } = (message ?? {}) as { route?: unknown; input?: unknown }
    return options.router.invoke(route, input, { transport: 'electron', clientId: `wc-${event.sender.id}` })
  })
  const unsubscribe = options.events.subscribe((name, payload) => {
    for (const window of options.windows()) {
      if (!window.isDestroyed()) window.webContents.send(EVENT_CHANNEL, { name, payload })
    }
  })
  return () => {
    ipcMain.removeHandler(ROUTE_CHANNEL)
    unsubscribe()
  }
}

function isTrustedSender(
  event: IpcMainInvokeEvent,
  options: { windows: () => BrowserWindow[]; isTrustedUrl: (url: string) => boolean }
): boolean {
  const frame = event.senderFrame
  if (!frame || frame !== event.sender.mainFrame) return false
  if (!options.windows().some((window) => window.webContents.id === event.sender.id)) return false
  return options.isTrustedUrl(frame.url)
}
