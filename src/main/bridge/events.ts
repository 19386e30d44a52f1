import type { EventDef, EventPayload } from '@shared/contracts/define'

export type EventListener = (name: string, payload: unknown) => void

/** What a presenter needs to tell the renderer something: nothing more. */
export interface EventSink {
  emit<E extends EventDef>(event: E, payload: EventPayload<E>): void
}

/** Whether an emitted event is `def`; narrows its payload to that event's. */
export function isEvent<D extends EventDef>(
  def: D,
  event: EventDef,
  _payload: unknown
): _payload is EventPayload<D> {
  return event === def
}

/**
 * Fans validated events out to every connected transport (Electron windows, WebSocket
 * clients). A payload that does not match its contract is a bug in main: it is logged and
 * dropped rather than sent.
 */
export class EventHub implements EventSink {
  private readonly listeners = new Set<EventListener>()

  constructor(private readonly log: (message: string) => void = () => {}) {}

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  emit<E extends EventDef>(event: E, payload: EventPayload<E>): void {
    const parsed = event.payload.safeParse(payload)
    if (!parsed.success) {
      this.log(`event ${event.name} dropped: payload does not match its contract`)
      return
    }
    for (const listener of this.listeners) {
      try {
        listener(event.name, parsed.data)
      } catch (error) {
        this.log(`event listener failed for ${event.name}: ${String(error)}`)
      }
    }
  }
}
