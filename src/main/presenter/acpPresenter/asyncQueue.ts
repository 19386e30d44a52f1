/** A push/pull queue read with `for await`: items in order, then the end or an error. */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = []
  private waiting: (() => void) | null = null
  private ended = false
  private error: unknown = undefined
  private failed = false

  push(item: T): void {
    if (this.ended) return
    this.items.push(item)
    this.wake()
  }

  end(): void {
    this.ended = true
    this.wake()
  }

  fail(error: unknown): void {
    if (this.ended) return
    this.failed = true
    this.error = error
    this.ended = true
    this.wake()
  }

  get isEnded(): boolean {
    return this.ended
  }

  private wake(): void {
    const wake = this.waiting
    this.waiting = null
    wake?.()
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.items.length) {
        yield this.items.shift()!
        continue
      }
      if (this.ended) {
        if (this.failed) throw this.error
        return
      }
      await new Promise<void>((resolve) => (this.waiting = resolve))
    }
  }
}
