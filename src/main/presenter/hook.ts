/**
 * One kind of happening a presenter announces to the others (a session stopped, sessions were
 * purged, ...). Presenters expose `onX(listener)` backed by a Hook; only `createPresenters()`
 * subscribes, so every dependency between presenters is visible there. A listener that throws
 * is logged and never breaks the presenter that fired or the other listeners.
 */
export class Hook<T> {
  private readonly listeners = new Set<(value: T) => void>()

  constructor(
    private readonly name: string,
    private readonly log: (message: string) => void = (message) => console.error(message)
  ) {}

  /** Adds a listener; the returned function removes it. */
  on(listener: (value: T) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  fire(value: T): void {
    for (const listener of this.listeners) {
      try {
        listener(value)
      } catch (error) {
        this.log(`${this.name} listener failed: ${String(error)}`)
      }
    }
  }
}
