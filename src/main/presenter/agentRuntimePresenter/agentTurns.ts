import type { PlanSnapshot } from '@shared/contracts/events/tools.events'
import type { MessageRecord, SessionRecord } from '@shared/types/session'
import type { EventSink } from '../../bridge/events'
import type { BlockAccumulator } from './blockAccumulator'
import type { DeltaStreamer } from './deltaStreamer'
import type { RunOutcome, RunStore } from './runLoop'

/** What the chat loop lends an agent's turn: where its message is written and streamed. */
export interface AgentTurnBase {
  store: RunStore
  events: EventSink
  newId: () => string
  deltaIntervalMs?: number
  log?: (message: string) => void
}

/** One agent turn: the chat and its message, the agent, and the stop signal. */
export interface AgentTurnSpec {
  session: SessionRecord
  messageId: string
  runId: string
  agentId: string
  /** What the chat loop calls the model of this run (`acp` / the agent's id). */
  providerId: string
  modelId: string
  userMessage: MessageRecord | null
  initialBlocks: MessageRecord['blocks']
  signal: AbortSignal
}

/** A run the chat loop drives: a provider's (`ChatRun`) or an agent's. */
export interface TurnRun {
  readonly spec: { readonly messageId: string; readonly runId: string }
  readonly acc: BlockAccumulator
  readonly streamer: DeltaStreamer
  run(): Promise<RunOutcome>
  publishPlan(snapshot: PlanSnapshot): void
}

/**
 * Turns of chats whose model is an ACP agent. acpPresenter runs them (createPresenters hands its
 * runner in); the loop keeps the message, its streams, its stop and its recovery.
 */
export interface AgentTurns {
  /** Whether the agent may take a turn (throws for an agent that is gone). */
  isEnabled(agentId: string): boolean
  start(base: AgentTurnBase, spec: AgentTurnSpec): TurnRun
  /** Stop on a paused message: the turn parked on it is cancelled. */
  stopParked(messageId: string): void
  forgetSession(sessionId: string): void
  /** App shutdown: parked turns are cancelled (their messages stay paused). */
  dispose(): void
}
