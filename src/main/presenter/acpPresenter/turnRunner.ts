import { TOOL } from '@shared/builtinTools'
import { isAppError } from '@shared/errors'
import type { AcpStopReason, AcpTurnEvent } from '@shared/types/acp'
import type { ChatErrorCode } from '@shared/types/blocks'
import type { PendingInteraction } from '@shared/types/session'
import { chatStreamCompleted, chatStreamFailed, chatStreamPaused } from '@shared/contracts/events/chat.events'
import type { AcpPresenter } from './index'
import type { PermissionGate } from '../permission'
import type { InteractionRequest } from '../sessionPresenter'
import type { TapePresenter } from '../tapePresenter'
import { AcpBlockWriter, promptContent } from './turnBlocks'
import type { AttachmentReader } from '../attachmentPresenter'
import { LiveAcpTurn, type AcpTurns, type InboxItem, type PendingAsk, type TurnStep } from './liveTurn'
import type { AgentTurnBase, AgentTurnSpec } from '../agentRuntimePresenter/agentTurns'
import { BlockAccumulator } from '../agentRuntimePresenter/blockAccumulator'
import { DeltaStreamer } from '../agentRuntimePresenter/deltaStreamer'
import type { RunOutcome } from '../agentRuntimePresenter/runLoop'
import { streamedBlocks } from '../agentRuntimePresenter/streamedBlocks'

export interface AcpRunDeps extends AgentTurnBase {
  acp: Pick<AcpPresenter, 'prompt' | 'getAgent'>
  turns: AcpTurns
  interactions: { list(filter: { messageId: string }): PendingInteraction[] }
  /** Spends the once-grant an "Allow once" answer left (the agent's request was let through already). */
  permissions: Pick<PermissionGate, 'evaluate' | 'consume'>
  tape: Pick<TapePresenter, 'appendEvent'>
  /** Attached files of the user's message (the attachment store). */
  attachments?: AttachmentReader
}

export type AcpRunSpec = AgentTurnSpec

type Exit = RunOutcome | { status: 'continue' }

export const INTERRUPTED_MESSAGE =
  "The agent's turn ended while it waited for an answer (the app restarted or the agent stopped). Send the message again."

/**
 * The chat loop's run for a chat whose model is an ACP agent. Instead of provider rounds it
 * streams one `session/prompt` into the message's blocks through the same accumulator and delta
 * streamer as `ChatRun`, and ends through the same exits: completed, paused (the agent asks the
 * user: the turn is parked, the agent keeps waiting, and the resumed run answers it), aborted
 * (Stop sends `session/cancel`) or error (a crashed agent fails this chat's turn only).
 */
export class AcpTurnRunner {
  readonly acc: BlockAccumulator
  readonly streamer: DeltaStreamer
  private readonly writer: AcpBlockWriter
  private live: LiveAcpTurn | null = null
  private parked = false
  private pendingRequests: InteractionRequest[] = []
  private metadata: Record<string, unknown>

  constructor(
    private readonly deps: AcpRunDeps,
    readonly spec: AcpRunSpec
  ) {
    const blocks = streamedBlocks(deps, spec)
    this.streamer = blocks.streamer
    this.acc = blocks.acc
    this.writer = new AcpBlockWriter(this.acc, { id: spec.agentId, name: this.agentName() }, spec.messageId)
    this.metadata = { providerId: spec.providerId, modelId: spec.modelId, agentId: spec.agentId }
  }

  async run(): Promise<RunOutcome> {
    let outcome: RunOutcome
    try {
      outcome = await this.loop()
    } catch (error) {
      outcome = this.spec.signal.aborted ? { status: 'aborted' } : failure(error)
    }
    try {
      return this.exit(outcome)
    } finally {
      this.streamer.close()
      this.settleTurn()
    }
  }

  /** `update_plan` belongs to our own tools; an agent's plan arrives as its events. */
  publishPlan(): void {}

  private async loop(): Promise<RunOutcome> {
    const { spec, deps } = this
    this.live = deps.turns.take(spec.messageId) ?? null
    if (this.live) this.answerWaiting(this.live)
    else if (deps.interactions.list({ messageId: spec.messageId }).length > 0)
      // A resume whose agent turn is gone: nothing is waiting for these answers any more.
      return { status: 'error', code: 'interrupted', message: INTERRUPTED_MESSAGE }
    else this.live = await this.startTurn()
    const live = this.live
    for (;;) {
      const exit = live.inbox.length
        ? await this.handleInbox(live)
        : await this.handle(await live.next(this.spec.signal))
      if (exit.status !== 'continue') return exit
    }
  }

  private async startTurn(): Promise<LiveAcpTurn> {
    const { spec, deps } = this
    await deps.turns.settled(spec.session.id)
    const live = new LiveAcpTurn({
      sessionId: spec.session.id,
      messageId: spec.messageId,
      newId: deps.newId,
      recordSnapshot: (snapshot) =>
        deps.tape.appendEvent(
          spec.session.tapeId,
          'file/snapshot',
          {
            sessionId: spec.session.id,
            toolCallId: snapshot.toolCallId,
            // An agent's fs/write_text_file is a write in the turn's checkpoint.
            tool: TOOL.write,
            path: snapshot.path,
            previousContent: snapshot.previousContent
          },
          { provenanceKey: `file:${snapshot.toolCallId}:${snapshot.path}` }
        )
    })
    live.start(
      deps.acp.prompt({
        chatSessionId: spec.session.id,
        agentId: spec.agentId,
        workspaceDir: spec.session.workspaceDir,
        content: promptContent(spec.userMessage?.content ?? null, deps.attachments, deps.log),
        signal: live.controller.signal,
        permissionMode: spec.session.permissionMode,
        hooks: live.hooks
      })
    )
    return live
  }

  private handle(step: TurnStep): Exit {
    switch (step.type) {
      case 'aborted':
        return { status: 'aborted' }
      case 'inbox':
        return { status: 'continue' }
      case 'error':
        throw step.error
      case 'end':
        // The turn always ends with a stop event; ending without one is the agent's failure.
        return {
          status: 'error',
          code: 'provider_error',
          message: 'The agent ended its turn without an answer.'
        }
      case 'event':
        return this.onEvent(step.event)
    }
  }

  /** Events already waiting go first, so an ask's call is in place before its card. */
  private async handleInbox(live: LiveAcpTurn): Promise<Exit> {
    for (let step = await live.ready(); step; step = await live.ready()) {
      const exit = this.handle(step)
      if (exit.status !== 'continue') return exit
    }
    return this.takeInbox(live)
  }

  private onEvent(event: AcpTurnEvent): Exit {
    if (event.type === 'stop') return this.stopped(event.stopReason)
    if (event.type === 'usage')
      this.metadata = { ...this.metadata, contextUsed: event.used, contextSize: event.size }
    else if (event.type === 'notice') this.deps.log?.(`${this.spec.agentId}: ${event.title}`)
    this.writer.apply(event)
    return { status: 'continue' }
  }

  private stopped(reason: AcpStopReason): RunOutcome {
    this.metadata = { ...this.metadata, stopReason: reason }
    if (reason === 'cancelled') return { status: 'aborted' }
    if (reason === 'refusal')
      return { status: 'error', code: 'provider_error', message: 'The agent refused to continue.' }
    if (!this.writer.hasVisibleOutput())
      return { status: 'error', code: 'no_model_response', message: 'The agent returned no response.' }
    return { status: 'completed', yieldedToQueue: false }
  }

  /** Requests that arrived between events: bare writes become calls of their own; asks pause the run. */
  private takeInbox(live: LiveAcpTurn): Exit {
    const items = live.inbox.splice(0)
    const asks: PendingAsk[] = []
    for (const item of items) {
      if (item.type === 'write') this.bareWrite(item)
      else if (!item.pending.answered) asks.push(item.pending)
    }
    if (asks.length === 0) return { status: 'continue' }
    for (const pending of asks) {
      const interactionId = this.deps.newId()
      const toolCallId = this.callForAsk(live, pending)
      this.pendingRequests.push(this.writer.openPermission(pending.ask, toolCallId, interactionId))
      live.waiting.set(interactionId, pending)
    }
    return { status: 'paused', interactions: [] }
  }

  private bareWrite(item: Extract<InboxItem, { type: 'write' }>): void {
    this.writer.syntheticCall(item.toolCallId, 'fs/write_text_file', { path: item.path }, 'success')
  }

  /** The call an ask belongs to: the agent's (made if we have not seen it yet), else one of our own. */
  private callForAsk(live: LiveAcpTurn, pending: PendingAsk): string {
    const { ask } = pending
    if (ask.kind === 'agent_tool') {
      if (!this.writer.callBlock(ask.toolCall.id)) this.writer.upsertCall(ask.toolCall)
      return ask.toolCall.id
    }
    if (ask.toolCallId && this.writer.callBlock(ask.toolCallId)) return ask.toolCallId
    const id = `acp-${this.deps.newId()}`
    const path = ask.request.paths?.[0] ?? ''
    const detail: Record<string, string> = ask.request.command ? { command: ask.request.command } : { path }
    if (ask.method !== 'terminal/create' && path) live.callsByPath.set(path, id)
    this.writer.syntheticCall(id, ask.method, detail, 'pending')
    return id
  }

  /** A resumed run: the user's answers go to the agent, which has been waiting for them. */
  private answerWaiting(live: LiveAcpTurn): void {
    const answered = new Map(
      this.deps.interactions.list({ messageId: this.spec.messageId }).map((i) => [i.id, i])
    )
    for (const [interactionId, pending] of live.waiting) {
      const interaction = answered.get(interactionId)
      const decision = (interaction?.response as { decision?: string } | null)?.decision
      if (interaction?.status !== 'granted') {
        pending.answer('reject')
        continue
      }
      if (decision === 'allow_once') this.spendOnceGrant(pending)
      const synthetic = pending.ask.kind === 'boundary' && pending.ask.toolCallId !== interaction.toolCallId
      this.writer.granted(interaction.toolCallId ?? '', synthetic)
      pending.answer(
        decision === 'allow_always' && pending.ask.kind === 'boundary' ? 'allow_always' : 'allow_once'
      )
    }
    live.waiting.clear()
  }

  /** The answer already let the request through; the grant it left must not allow a second one. */
  private spendOnceGrant(pending: PendingAsk): void {
    const verdict = this.deps.permissions.evaluate(pending.ask.request, this.spec.session.permissionMode)
    if (verdict.status === 'allow' && verdict.onceGrant)
      this.deps.permissions.consume(this.spec.session.id, verdict.onceGrant)
  }

  /** After any other exit the agent's turn ends (a stopped one in the background). */
  private settleTurn(): void {
    if (this.live && !this.parked && !this.live.isEnded) this.deps.turns.release(this.live)
  }

  private exit(outcome: RunOutcome): RunOutcome {
    const { acc, spec, streamer, deps } = this
    const header = { sessionId: spec.session.id, messageId: spec.messageId, runId: spec.runId }
    if (outcome.status === 'paused') {
      streamer.flushDeltas()
      const interactions = deps.store.pause(spec.messageId, acc.blocks, this.pendingRequests)
      if (this.live) deps.turns.park(this.live)
      this.parked = true
      deps.events.emit(chatStreamPaused, { ...header, seq: streamer.seq + 1, interactions })
      return { status: 'paused', interactions }
    }
    acc.settleOpenBlocks()
    if (outcome.status === 'completed') {
      streamer.flushDeltas()
      deps.store.finalize(spec.messageId, 'sent', acc.blocks, this.metadata)
      deps.events.emit(chatStreamCompleted, { ...header, seq: streamer.seq + 1, status: 'sent', usage: null })
      return outcome
    }
    const failed =
      outcome.status === 'aborted'
        ? { code: 'user_cancelled' as const, message: 'Stopped by the user.', status: 'cancelled' as const }
        : { code: outcome.code, message: outcome.message, status: 'error' as const }
    this.stampPlan(outcome.status === 'aborted' ? 'aborted' : 'error')
    acc.addError(failed.code, failed.message)
    streamer.flushDeltas()
    deps.store.finalize(spec.messageId, failed.status, acc.blocks, this.metadata)
    deps.events.emit(chatStreamFailed, {
      ...header,
      seq: streamer.seq + 1,
      status: failed.status,
      error: { code: failed.code, message: failed.message }
    })
    return outcome
  }

  private stampPlan(reason: 'aborted' | 'error'): void {
    const block = this.acc.getOf(`plan-${this.spec.messageId}`, 'plan')
    if (!block || block.data.entries.every((e) => e.status === 'completed')) return
    this.acc.update(block.id, 'plan', { data: { ...block.data, terminalReason: reason } })
  }

  private agentName(): string {
    try {
      return this.deps.acp.getAgent(this.spec.agentId).name
    } catch {
      return this.spec.agentId
    }
  }
}

/** An error out of the agent's turn as the run's error exit (its message says what happened). */
function failure(error: unknown): RunOutcome {
  const message = error instanceof Error ? error.message : String(error)
  const code: ChatErrorCode = isAppError(error) ? 'provider_error' : 'internal'
  return { status: 'error', code, message }
}
