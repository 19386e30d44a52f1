import type { RouteResult, ServerMessage } from '@shared/contracts/envelope'

export type EventListener = (name: string, payload: unknown) => void

/** How the bridge client reaches main: Electron IPC or the headless host's WebSocket. */
export interface BridgeTransport {
  readonly kind: 'electron' | 'websocket'
  invoke(route: string, input: unknown): Promise<RouteResult>
  on(listener: EventListener): () => void
}

export class TransportError extends Error {
  readonly code = 'transport'
}

export function electronTransport(api: NonNullable<Window['deepchat']>): BridgeTransport {
  return {
    kind: 'electron',
    // IPC structured-clones its arguments and refuses Vue's reactive proxies; the WebSocket
    // sends JSON anyway, so both transports carry the same plain data.
    invoke: (route, input) => api.invoke(route, toPlainJson(input)) as Promise<RouteResult>,
    on: (listener) => api.on(listener)
  }
}

interface Pending {
  resolve(result: RouteResult): void
  reject(error: Error): void
}

/**
 * WebSocket to the headless host. Calls made while connecting wait for the socket; a dropped
 * connection fails the calls in flight (they may or may not have run) and reconnects with
 * backoff (up to 5 s) for as long as the page listens, also after failed attempts. `onConnectionChange` lets the UI show that it is offline.
 */
export function websocketTransport(options: {
  url: string
  onConnectionChange?: (connected: boolean) => void
  WebSocketImpl?: typeof WebSocket
}): BridgeTransport {
  const Impl = options.WebSocketImpl ?? WebSocket
  const listeners = new Set<EventListener>()
  const pending = new Map<number, Pending>()
  let nextId = 1
  let ready: Promise<WebSocket> | undefined
  let retryMs = 250

  const connect = (): Promise<WebSocket> => {
    ready ??= new Promise<WebSocket>((resolve, reject) => {
      const ws = new Impl(options.url)
      ws.onopen = () => {
        retryMs = 250
        options.onConnectionChange?.(true)
        resolve(ws)
      }
      ws.onmessage = (event) => {
        const message = JSON.parse(String(event.data)) as ServerMessage
        if (message.type === 'result') {
          pending.get(message.id)?.resolve(message.result)
          pending.delete(message.id)
        } else {
          for (const listener of listeners) listener(message.name, message.payload)
        }
      }
      // A failed connection is reported by the close that follows; handling it here keeps it
      // from surfacing as an unhandled error (the `ws` implementation throws otherwise).
      ws.onerror = () => {}
      ws.onclose = (event) => {
        ready = undefined
        options.onConnectionChange?.(false)
        const error = new TransportError(
          `connection to the app closed (${event.code}${event.reason ? `: ${event.reason}` : ''})`
        )
        for (const call of pending.values()) call.reject(error)
        pending.clear()
        reject(error)
        // Keep trying while the page listens: a restarted host (same data folder) takes the
        // same port and token, so the tab comes back on its own.
        if (listeners.size > 0) {
          setTimeout(() => void connect().catch(() => {}), retryMs)
          retryMs = Math.min(retryMs * 2, 5000)
        }
      }
    })
    return ready
  }

  return {
    kind: 'websocket',
    async invoke(route, input) {
      const ws = await connect()
      const id = nextId++
      return new Promise<RouteResult>((resolve, reject) => {
        pending.set(id, { resolve, reject })
        ws.send(JSON.stringify({ type: 'invoke', id, route, input }))
      })
    },
    on(listener) {
      listeners.add(listener)
      void connect().catch(() => {})
      return () => listeners.delete(listener)
    }
  }
}

/** Where the host's bridge is, and the token from the URL the host printed (`#token=...`). */
export function hostBridgeUrl(location: Location, storage: Storage): string {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ''))
  const token = hash.get('token') ?? storage.getItem('deepchat.token') ?? ''
  if (hash.get('token')) storage.setItem('deepchat.token', token)
  const host = hash.get('host') ?? storage.getItem('deepchat.host') ?? location.host
  if (hash.get('host')) storage.setItem('deepchat.host', host)
  return `ws://${host}/bridge?token=${encodeURIComponent(token)}`
}

function toPlainJson(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value))
}
