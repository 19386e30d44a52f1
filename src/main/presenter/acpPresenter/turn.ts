import type { AcpPermissionAnswer, AcpPermissionAsk, AcpStopReason, AcpTurnEvent } from '@shared/types/acp'
import type { PermissionMode } from '@shared/types/permission'
import { AsyncQueue } from './asyncQueue'
import { ToolCallTracker, type TerminalLookup } from './updateMapper'

/** A file the agent is about to change, with what it held before (null: a new file). */
export interface AcpFileSnapshot {
  chatSessionId: string
  agentId: string
  /** The agent's tool call that names this path, when one does. */
  toolCallId: string | null
  path: string
  previousContent: string | null
}

/**
 * What the chat loop lends a turn. `requestPermission` is its pause → card → resume path: it
 * resolves with the user's answer, or should reject/resolve `reject` when `signal` aborts (the
 * user stopped the turn). `recordFileSnapshot` runs before each write the agent makes through
 * us, so checkpoints can list and revert the turn's changes.
 */
export interface AcpTurnHooks {
  requestPermission(ask: AcpPermissionAsk, signal: AbortSignal): Promise<AcpPermissionAnswer>
  recordFileSnapshot?(snapshot: AcpFileSnapshot): Promise<void>
}

/**
 * One prompt turn of one chat: the normalized events it streams, its tool calls, and the
 * permission mode and hooks the agent's requests are judged with while it runs.
 */
export class AcpTurn {
  readonly events = new AsyncQueue<AcpTurnEvent>()
  readonly tools: ToolCallTracker
  /** Aborted when the user stops the turn or it ends: pending asks are withdrawn. */
  private readonly controller = new AbortController()
  private settled = false

  constructor(
    readonly permissionMode: PermissionMode,
    readonly hooks: AcpTurnHooks,
    terminals: TerminalLookup
  ) {
    this.tools = new ToolCallTracker(terminals)
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  get isSettled(): boolean {
    return this.settled
  }

  push(events: AcpTurnEvent[]): void {
    if (this.settled) return
    for (const event of events) this.events.push(event)
  }

  /** The agent answered the prompt: the stop event closes the stream. */
  finish(stopReason: AcpStopReason): void {
    if (this.settled) return
    this.settled = true
    this.controller.abort()
    this.events.push({ type: 'stop', stopReason })
    this.events.end()
  }

  fail(error: unknown): void {
    if (this.settled) return
    this.settled = true
    this.controller.abort()
    this.events.fail(error)
  }

  /** Withdraws pending asks (the user stopped); the turn itself waits for the agent's answer. */
  withdrawAsks(): void {
    this.controller.abort()
  }
}
