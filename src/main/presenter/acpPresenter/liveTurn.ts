import type { AcpPermissionAnswer, AcpPermissionAsk, AcpTurnEvent } from '@shared/types/acp'
import type { AcpFileSnapshot, AcpTurnHooks } from './index'

/** An agent's question to the user, answered once (a stop answers `reject`). */
export interface PendingAsk {
  ask: AcpPermissionAsk
  answered: boolean
  answer(answer: AcpPermissionAnswer): void
}

/** What the agent's requests hand the run between its events. */
export type InboxItem =
  | { type: 'ask'; pending: PendingAsk }
  /** A write no tool call names: the run shows it as a call of its own, so checkpoints find it. */
  | { type: 'write'; toolCallId: string; path: string }

export type TurnStep =
  | { type: 'event'; event: AcpTurnEvent }
  | { type: 'end' }
  | { type: 'error'; error: unknown }
  | { type: 'inbox' }
  | { type: 'aborted' }

export interface LiveTurnDeps {
  sessionId: string
  messageId: string
  /** Puts the file's previous content on the chat's tape (a `file/snapshot` fact). */
  recordSnapshot(snapshot: AcpFileSnapshot & { toolCallId: string }): void
  newId(): string
}

/**
 * One agent turn (`session/prompt`) as the chat loop holds it. It outlives a run: when the agent
 * asks the user, the run pauses like any run, and this turn — the agent still waiting for our
 * answer — is parked until the resumed run adopts it. Events and requests that arrive meanwhile
 * wait here.
 */
export class LiveAcpTurn {
  /** The user's Stop for the whole agent turn (it sends `session/cancel`). */
  readonly controller = new AbortController()
  readonly inbox: InboxItem[] = []
  /** Asks shown to the user, by interaction id, until a resumed run answers them. */
  readonly waiting = new Map<string, PendingAsk>()
  /** Calls made for boundary asks no tool call names, by path: the write that follows is theirs. */
  readonly callsByPath = new Map<string, string>()
  private iterator: AsyncIterator<AcpTurnEvent> | null = null
  private pending: Promise<TurnStep> | null = null
  private wake: (() => void) | null = null
  private ended = false

  constructor(private readonly deps: LiveTurnDeps) {}

  get sessionId(): string {
    return this.deps.sessionId
  }

  get messageId(): string {
    return this.deps.messageId
  }

  readonly hooks: AcpTurnHooks = {
    requestPermission: (ask, signal) =>
      new Promise<AcpPermissionAnswer>((resolve) => {
        const pending: PendingAsk = {
          ask,
          answered: false,
          answer: (answer) => {
            if (pending.answered) return
            pending.answered = true
            resolve(answer)
          }
        }
        if (signal.aborted) return pending.answer('reject')
        signal.addEventListener('abort', () => pending.answer('reject'), { once: true })
        this.push({ type: 'ask', pending })
      }),
    recordFileSnapshot: async (snapshot) => {
      let toolCallId = snapshot.toolCallId ?? this.callsByPath.get(snapshot.path) ?? null
      if (!toolCallId) {
        toolCallId = `acp-write-${this.deps.newId()}`
        this.callsByPath.set(snapshot.path, toolCallId)
        this.push({ type: 'write', toolCallId, path: snapshot.path })
      }
      this.deps.recordSnapshot({ ...snapshot, toolCallId })
    }
  }

  start(events: AsyncIterable<AcpTurnEvent>): void {
    this.iterator = events[Symbol.asyncIterator]()
  }

  get isEnded(): boolean {
    return this.ended
  }

  /** The next thing to handle: an event, the end, something in the inbox, or the run's stop. */
  async next(signal: AbortSignal): Promise<TurnStep> {
    if (this.inbox.length) return { type: 'inbox' }
    if (this.ended) return { type: 'end' }
    if (signal.aborted) return { type: 'aborted' }
    const stop = abortStep(signal)
    const inbox = new Promise<TurnStep>((resolve) => (this.wake = () => resolve({ type: 'inbox' })))
    try {
      return await Promise.race([this.pull(), inbox, stop.promise])
    } finally {
      stop.dispose()
      this.wake = null
    }
  }

  /** An event that is already waiting, without waiting for a new one (null: none yet). */
  async ready(): Promise<TurnStep | null> {
    if (this.ended) return null
    const later = new Promise<null>((resolve) => setImmediate(() => resolve(null)))
    return Promise.race([this.pull(), later])
  }

  /** Ends the turn: `session/cancel` goes out and every open ask is refused. */
  stop(): void {
    this.controller.abort()
    for (const pending of this.waiting.values()) pending.answer('reject')
    for (const item of this.inbox) if (item.type === 'ask') item.pending.answer('reject')
  }

  /** Reads the turn to its end (after a stop: until the agent answers its cancelled prompt). */
  async drain(): Promise<void> {
    while (!this.ended) await this.pull()
  }

  private push(item: InboxItem): void {
    this.inbox.push(item)
    const wake = this.wake
    this.wake = null
    wake?.()
  }

  /** The iterator's next step; one read in flight at a time, kept across races it lost. */
  private pull(): Promise<TurnStep> {
    if (!this.iterator) return Promise.resolve({ type: 'end' })
    this.pending ??= this.iterator.next().then(
      (result): TurnStep => {
        this.pending = null
        if (result.done) this.ended = true
        return result.done ? { type: 'end' } : { type: 'event', event: result.value }
      },
      (error: unknown): TurnStep => {
        this.pending = null
        this.ended = true
        return { type: 'error', error }
      }
    )
    return this.pending
  }
}

function abortStep(signal: AbortSignal): { promise: Promise<TurnStep>; dispose(): void } {
  let onAbort: () => void = () => {}
  const promise = new Promise<TurnStep>((resolve) => {
    onAbort = () => resolve({ type: 'aborted' })
    signal.addEventListener('abort', onAbort, { once: true })
  })
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) }
}

/**
 * Agent turns the chat loop is not running right now: parked while the user answers, or
 * finishing in the background after a stop. A new turn of the same chat waits for the old one
 * to end (the agent allows one prompt per session at a time).
 */
export class AcpTurns {
  private readonly parked = new Map<string, LiveAcpTurn>()
  private readonly draining = new Map<string, Promise<void>>()

  constructor(private readonly log: (message: string) => void = () => {}) {}

  park(turn: LiveAcpTurn): void {
    this.parked.set(turn.messageId, turn)
  }

  /** The turn parked on `messageId`, now the caller's. */
  take(messageId: string): LiveAcpTurn | undefined {
    const turn = this.parked.get(messageId)
    this.parked.delete(messageId)
    return turn
  }

  /** Stops a turn and lets it end in the background. */
  release(turn: LiveAcpTurn): void {
    turn.stop()
    if (turn.isEnded) return
    const done: Promise<void> = turn
      .drain()
      .catch((error: unknown) => this.log(`agent turn did not end cleanly: ${String(error)}`))
      .finally(() => {
        if (this.draining.get(turn.sessionId) === done) this.draining.delete(turn.sessionId)
      })
    this.draining.set(turn.sessionId, done)
  }

  /** Stop on a paused message: its parked turn is cancelled. */
  stopParked(messageId: string): void {
    const turn = this.take(messageId)
    if (turn) this.release(turn)
  }

  forgetSession(sessionId: string): void {
    for (const turn of [...this.parked.values()])
      if (turn.sessionId === sessionId) this.stopParked(turn.messageId)
  }

  /** Resolves when no earlier turn of the chat is still ending. */
  async settled(sessionId: string): Promise<void> {
    while (this.draining.has(sessionId)) await this.draining.get(sessionId)
  }

  /** App shutdown: parked turns are cancelled (their messages stay paused; see recovery). */
  dispose(): void {
    for (const turn of [...this.parked.values()]) this.stopParked(turn.messageId)
  }
}
