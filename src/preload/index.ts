import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'

// Sandboxed preload: exposes exactly `invoke` and `on`, nothing of Node or Electron.
const ROUTE_CHANNEL = 'deepchat:route'
const EVENT_CHANNEL = 'deepchat:event'

type EventMessage = { name: string; payload: unknown }

contextBridge.exposeInMainWorld('deepchat', {
  invoke(route: string, input: unknown): Promise<unknown> {
    return ipcRenderer.invoke(ROUTE_CHANNEL, { route, input })
  },
  on(listener: (name: string, payload: unknown) => void): () => void {
    const wrapped = (_event: IpcRendererEvent, message: EventMessage) =>
      listener(message.name, message.payload)
    ipcRenderer.on(EVENT_CHANNEL, wrapped)
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, wrapped)
    }
  }
})
