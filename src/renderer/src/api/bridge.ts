import type { EventDef, EventPayload, RouteDef, RouteInput, RouteOutput } from '@shared/contracts/define'
import { electronTransport, hostBridgeUrl, websocketTransport, type BridgeTransport } from './transports'

/** A failed route call, rethrown in the renderer with the code main chose. */
export class BridgeError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown
  ) {
    super(message)
    this.name = 'BridgeError'
  }
}

export class BridgeClient {
  constructor(readonly transport: BridgeTransport) {}

  async call<R extends RouteDef>(route: R, input: RouteInput<R>): Promise<RouteOutput<R>> {
    const result = await this.transport.invoke(route.name, input)
    if (!result.ok) throw new BridgeError(result.error.code, result.error.message, result.error.details)
    return result.data as RouteOutput<R>
  }

  on<E extends EventDef>(event: E, handler: (payload: EventPayload<E>) => void): () => void {
    return this.transport.on((name, payload) => {
      if (name === event.name) handler(payload as EventPayload<E>)
    })
  }
}

let client: BridgeClient | undefined

/** The app's bridge: Electron IPC when the preload exposed it, else the host's WebSocket. */
export function useBridge(): BridgeClient {
  client ??= new BridgeClient(
    window.deepchat
      ? electronTransport(window.deepchat)
      : websocketTransport({
          url: hostBridgeUrl(window.location, window.sessionStorage),
          onConnectionChange: (connected) => connectionListeners.forEach((listener) => listener(connected))
        })
  )
  return client
}

const connectionListeners = new Set<(connected: boolean) => void>()
export function onConnectionChange(listener: (connected: boolean) => void): () => void {
  connectionListeners.add(listener)
  return () => connectionListeners.delete(listener)
}

/** For tests: use a given transport instead of the window's. */
export function setBridgeForTesting(next: BridgeClient | undefined): void {
  client = next
}
