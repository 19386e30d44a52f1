import type { LLMCoreStreamEvent, LLMRequest, LLMToolDefinition } from '@shared/types/llm'
import type { MessageBlock, MessageRecord, PendingInteraction, SessionRecord } from '@shared/types/session'
import type { ChatErrorCode, PlanBlockData } from '@shared/types/chat'
import type { MCPToolDefinition } from '@shared/types/tools'
import type { WebSearchMode } from '@shared/types/webSearch'
import type { PlanSnapshot } from '@shared/contracts/events/tools.events'
import {
  chatPlanUpdated,
  chatStreamCompleted,
  chatStreamFailed,
  chatStreamRetrying,
  chatStreamPaused
} from '@shared/contracts/events/chat.events'
import type { EventSink } from '../../bridge/events'
import type { InteractionRequest } from '../sessionPresenter'
import type { ToolPresenter } from '../toolPresenter'
import type { ChatTurns } from '../toolPresenter/runtimePorts'
import { BlockAccumulator, type ProviderFailureDetail } from './blockAccumulator'
import { DeltaStreamer, type DeltaBatch } from './deltaStreamer'
import {
  COMPACTION_THRESHOLD,
  prepareContext,
  requestMessages,
  toolDefinitionTokens,
  type ContextDeps,
  type ModelLimits,
  type PreparedContext
} from './contextBuilder'
import { estimateTokens } from './conversation'
import { dispatchRound, runCall, type DispatchTools } from './dispatch'
import { checkRound } from './guards'
import { OVERFLOW_ANCHOR } from './tapeHistory'
import { generationRequestOptions } from './generationOptions'
import { StorageFaultError } from '../sqlitePresenter/storageFaults'
import { streamedBlocks } from './streamedBlocks'

/** Where a run keeps the message: the projection and tape through SessionPresenter. */
export interface RunStore {
  /** Commits one delta batch (the stream journal) before the renderer is sent it. */
  appendStreamBatch(messageId: string, batch: DeltaBatch): void
  finalize(
    messageId: string,
    status: 'sent' | 'error' | 'cancelled',
    blocks: MessageBlock[],
    metadata: Record<string, unknown>
  ): void
  pause(messageId: string, blocks: MessageBlock[], interactions: InteractionRequest[]): PendingInteraction[]
}

export interface RunDeps {
  coreStream: (request: LLMRequest, signal: AbortSignal) => AsyncIterable<LLMCoreStreamEvent>
  tools: DispatchTools &
    Pick<ToolPresenter, 'getAllToolDefinitions' | 'buildToolSystemPrompt'> &
    Partial<Pick<ToolPresenter, 'takeToolsChanged'>>
  /** This loop, handed to each tool call (a subagent run starts its children's turns on it). */
  turns?: ChatTurns
  context: ContextDeps
  store: RunStore
  events: EventSink
  newId: () => string
  /** Whether steering input waits for this session (checked at every tool boundary). */
  hasQueuedInput: (sessionId: string) => boolean
  deltaIntervalMs?: number
  log?: (message: string) => void
  /** The storage fault an error is (disk full, read-only, folder removed), recorded for the user; else null. */
  storageFault?: (error: unknown) => StorageFaultError | null
  /** How chats search the web by default, and which models have their provider's own search. */
  webSearch?: {
    defaultMode(): WebSearchMode
    hasNativeSearch(providerId: string, modelId: string): boolean
  }
}

/** The app's search tool, not offered when the chat searches with the provider's own search or not at all. */
const APP_WEB_SEARCH_TOOL = 'web_search'

export interface RunSpec {
  session: SessionRecord
  messageId: string
  runId: string
  providerId: string
  modelId: string
  /** The model's context length and output cap (looked up when the run starts). */
  limits: () => Promise<ModelLimits>
  userMessage: MessageRecord | null
  initialBlocks: readonly MessageBlock[]
  /** Resume: tool_call blocks whose permission was granted run before the next request. */
  grantedBlockIds?: readonly string[]
  signal: AbortSignal
}

export type RunOutcome =
  | { status: 'completed'; yieldedToQueue: boolean }
  | { status: 'paused'; interactions: PendingInteraction[] }
  | { status: 'aborted' }
  | { status: 'error'; code: ChatErrorCode; message: string; detail?: ProviderFailureDetail }

type Exit = RunOutcome | { status: 'continue' }

function storageOutcome(fault: StorageFaultError): Extract<RunOutcome, { status: 'error' }> {
  return { status: 'error', code: 'storage', message: fault.message }
}

/**
 * One run on an assistant message: provider rounds with tool dispatch in between, until the
 * model answers without tools (completed), a call needs the user (paused), the user stops it
 * (aborted) or something fails (error). Every exit writes the message with its status.
 */
export class ChatRun {
  readonly acc: BlockAccumulator
  readonly streamer: DeltaStreamer
  private usage = { inputTokens: 0, outputTokens: 0 }
  private definitions: MCPToolDefinition[] = []
  /** This turn searches with the provider's own web search (searchPlan). */
  private nativeWebSearch = false

  constructor(
    private readonly deps: RunDeps,
    readonly spec: RunSpec
  ) {
    const blocks = streamedBlocks(deps, spec)
    this.streamer = blocks.streamer
    this.acc = blocks.acc
  }

  async run(): Promise<RunOutcome> {
    let outcome: RunOutcome
    try {
      outcome = await this.loop()
    } catch (error) {
      const fault = this.deps.storageFault?.(error)
      outcome = fault
        ? storageOutcome(fault)
        : this.spec.signal.aborted
          ? { status: 'aborted' }
          : {
              status: 'error',
              code: 'internal',
              message: error instanceof Error ? error.message : String(error)
            }
      if (outcome.status === 'error')
        this.deps.log?.(`chat run ${this.spec.runId} failed: ${outcome.message}`)
    }
    // Stopped because the data folder cannot be written: the user is told why, not "stopped".
    const reason: unknown = this.spec.signal.reason
    if (outcome.status === 'aborted' && reason instanceof StorageFaultError) outcome = storageOutcome(reason)
    try {
      return this.exit(outcome)
    } catch (error) {
      const fault = this.deps.storageFault?.(error)
      if (!fault) throw error
      // The last write failed too: what was committed before stays; the client still hears the end.
      return this.exitUnsaved(storageOutcome(fault))
    } finally {
      this.streamer.close()
    }
  }

  /**
   * The message as it ended when its last write failed: kept in memory so the client reads the
   * error, not the stale `streaming` row, until the app restarts (then recovery marks it).
   */
  unsavedEnd: { status: 'error'; blocks: MessageBlock[] } | null = null

  private exitUnsaved(outcome: Extract<RunOutcome, { status: 'error' }>): RunOutcome {
    const { spec, streamer, acc } = this
    acc.settleOpenBlocks()
    const last = acc.blocks.at(-1)
    if (!(last?.kind === 'error' && last.data.code === outcome.code))
      acc.addError(outcome.code, outcome.message)
    this.unsavedEnd = { status: 'error', blocks: structuredClone(acc.blocks) }
    this.deps.events.emit(chatStreamFailed, {
      sessionId: spec.session.id,
      messageId: spec.messageId,
      runId: spec.runId,
      seq: streamer.seq + 1,
      status: 'error',
      error: { code: outcome.code, message: outcome.message }
    })
    return outcome
  }

  /** `update_plan` from a tool of this run: one plan block per message, upserted. */
  publishPlan(snapshot: PlanSnapshot): void {
    const blockId = `plan-${this.spec.messageId}`
    const plan: PlanBlockData = {
      entries: snapshot.plan,
      explanation: snapshot.explanation,
      revision: snapshot.revision
    }
    if (this.acc.get(blockId)) this.acc.update(blockId, 'plan', { data: plan })
    else this.acc.add({ id: blockId, kind: 'plan', status: 'success', text: '', data: plan })
    this.deps.events.emit(chatPlanUpdated, {
      sessionId: this.spec.session.id,
      messageId: this.spec.messageId,
      blockId,
      toolCallId: snapshot.toolCallId,
      plan
    })
  }

  /**
   * How this turn searches: the chat's choice (else the default); the provider's own search
   * only for models that have it, others keep the app's engine. One search, never two.
   */
  private searchPlan(): { native: boolean; appTool: boolean } {
    const web = this.deps.webSearch
    const mode = this.spec.session.generationSettings.webSearch ?? web?.defaultMode() ?? 'app'
    if (mode === 'off') return { native: false, appTool: false }
    const native = mode === 'provider' && !!web?.hasNativeSearch(this.spec.providerId, this.spec.modelId)
    return { native, appTool: !native }
  }

  private async loop(): Promise<RunOutcome> {
    const { spec } = this
    const ctx = this.toolContext()
    const search = this.searchPlan()
    this.nativeWebSearch = search.native
    const loadTools = async () => {
      const all = await this.deps.tools.getAllToolDefinitions(ctx)
      this.definitions = search.appTool ? all : all.filter((d) => d.function.name !== APP_WEB_SEARCH_TOOL)
      this.acc.toolServerNames = new Map(this.definitions.map((d) => [d.function.name, d.server.name]))
      const tools: LLMToolDefinition[] = this.definitions.map((d) => ({
        name: d.function.name,
        description: d.function.description,
        parameters: d.function.parameters
      }))
      const prompt = [
        spec.session.generationSettings.systemPrompt ?? '',
        this.deps.tools.buildToolSystemPrompt(this.definitions)
      ]
        .filter(Boolean)
        .join('\n\n')
      return { tools, prompt }
    }
    let { tools: llmTools, prompt: baseSystemPrompt } = await loadTools()

    const limits = await spec.limits()
    const resumed = await this.runGrantedCalls(ctx)
    if (resumed.status !== 'continue') return resumed

    const contextFor = (force: boolean) =>
      prepareContext(this.deps.context, {
        tapeId: spec.session.tapeId,
        providerId: spec.providerId,
        modelId: spec.modelId,
        limits,
        toolTokens: toolDefinitionTokens(llmTools),
        baseSystemPrompt,
        currentUser: spec.userMessage,
        assistantMessageId: spec.messageId,
        currentBlocks: this.acc.blocks,
        inheritForkHistory: spec.session.subagentMeta?.history === 'inherited',
        force,
        anchorName: force ? OVERFLOW_ANCHOR : undefined,
        signal: spec.signal
      })
    let context: PreparedContext = await contextFor(false)
    let overflowRecovered = false
    for (let round = 0; ; round++) {
      if (spec.signal.aborted) return { status: 'aborted' }
      // Tool results grow the prompt between rounds: re-check the budget (older turns may go).
      if (
        round > 0 &&
        estimateTokens(requestMessages(context, this.acc.blocks)) >
          context.budgetTokens * COMPACTION_THRESHOLD
      ) {
        context = await contextFor(false)
      }
      const result = await this.streamRound(context, llmTools)
      if (result.status === 'overflow') {
        if (overflowRecovered) return { status: 'error', code: 'context_overflow', message: result.message }
        overflowRecovered = true
        context = await contextFor(true).catch((error: unknown) => {
          throw new Error(
            `The conversation is too long for the model and could not be compacted: ${String(error instanceof Error ? error.message : error)}`
          )
        })
        if (!context.compacted) return { status: 'error', code: 'context_overflow', message: result.message }
        continue
      }
      if (result.status !== 'continue') return result
      const next = await this.dispatch(ctx)
      if (next.status !== 'continue') return next
      // A tool changed what this session may use (a skill was activated): the next request offers the new list.
      if (this.deps.tools.takeToolsChanged?.(spec.session.id)) {
        ;({ tools: llmTools, prompt: baseSystemPrompt } = await loadTools())
        context = await contextFor(false)
      }
    }
  }

  private async streamRound(
    context: PreparedContext,
    tools: LLMToolDefinition[]
  ): Promise<Exit | { status: 'overflow'; message: string }> {
    const { spec, acc } = this
    acc.startRound()
    const request: LLMRequest = {
      providerId: spec.providerId,
      modelId: spec.modelId,
      messages: requestMessages(context, acc.blocks),
      tools: tools.length ? tools : undefined,
      ...generationRequestOptions(spec.session.generationSettings),
      ...(this.nativeWebSearch ? { nativeWebSearch: true } : {})
    }
    for await (const event of this.deps.coreStream(request, spec.signal)) {
      if (event.type === 'retry') this.announceRetry(event)
      else acc.apply(event)
      if (spec.signal.aborted) break
    }
    if (acc.usage) {
      this.usage.inputTokens += acc.usage.prompt_tokens
      this.usage.outputTokens += acc.usage.completion_tokens
    }
    if (spec.signal.aborted) return { status: 'aborted' }
    const error = acc.error
    if (error) {
      // Overflow is recoverable only before the model said anything in this round.
      if (error.code === 'context_overflow' && !acc.roundHadOutput)
        return { status: 'overflow', message: error.message }
      return {
        status: 'error',
        code: error.code === 'context_overflow' ? 'context_overflow' : 'provider_error',
        message: error.message,
        detail: {
          ...(error.category ? { category: error.category } : {}),
          ...(error.status !== undefined ? { status: error.status } : {})
        }
      }
    }
    if (acc.completedCalls().length === 0) {
      const visible = acc.blocks.some((b) => b.kind !== 'error' && b.kind !== 'action')
      return visible
        ? { status: 'completed', yieldedToQueue: false }
        : { status: 'error', code: 'no_model_response', message: 'The model returned no response.' }
    }
    return { status: 'continue' }
  }

  private async dispatch(ctx: ReturnType<ChatRun['toolContext']>): Promise<Exit> {
    const { acc, spec } = this
    const calls = acc.completedCalls()
    acc.closeNarrative()
    const verdict = checkRound(acc.blocks, calls)
    if (!verdict.ok) {
      for (const call of calls) acc.setStatus(call.blockId, 'cancelled')
      return { status: 'error', code: verdict.code, message: verdict.message }
    }
    const interactions = await dispatchRound(this.deps.tools, {
      calls,
      acc,
      definitions: this.definitions,
      ctx,
      newId: this.deps.newId
    })
    if (spec.signal.aborted) return { status: 'aborted' }
    if (interactions.length) return this.pauseWith(interactions)
    this.streamer.flushDeltas()
    if (this.deps.hasQueuedInput(spec.session.id)) return { status: 'completed', yieldedToQueue: true }
    return { status: 'continue' }
  }

  private async runGrantedCalls(ctx: ReturnType<ChatRun['toolContext']>): Promise<Exit> {
    const interactions: InteractionRequest[] = []
    for (const blockId of this.spec.grantedBlockIds ?? []) {
      if (this.spec.signal.aborted) return { status: 'aborted' }
      const block = this.acc.getOf(blockId, 'tool_call')
      if (!block) continue
      const call = {
        id: block.toolCall.id,
        name: block.toolCall.name,
        arguments: block.toolCall.params,
        blockId
      }
      const interaction = await runCall(this.deps.tools, { acc: this.acc, ctx, newId: this.deps.newId }, call)
      if (interaction) interactions.push(interaction)
    }
    if (this.spec.signal.aborted) return { status: 'aborted' }
    if (interactions.length) return this.pauseWith(interactions)
    return { status: 'continue' }
  }

  private pauseWith(requests: InteractionRequest[]): Exit {
    // Held here; `exit` writes blocks and interactions in one transaction.
    this.pendingRequests = requests
    return { status: 'paused', interactions: [] }
  }

  private pendingRequests: InteractionRequest[] = []

  private toolContext() {
    const { session, signal } = this.spec
    return {
      sessionId: session.id,
      workspaceDir: session.workspaceDir,
      permissionMode: session.permissionMode,
      signal,
      turns: this.deps.turns
    }
  }

  private exit(outcome: RunOutcome): RunOutcome {
    const { acc, spec, streamer } = this
    const header = () => ({ sessionId: spec.session.id, messageId: spec.messageId, runId: spec.runId })
    if (outcome.status === 'paused') {
      streamer.flushDeltas()
      const interactions = this.deps.store.pause(spec.messageId, acc.blocks, this.pendingRequests)
      this.deps.events.emit(chatStreamPaused, { ...header(), seq: streamer.seq + 1, interactions })
      return { status: 'paused', interactions }
    }
    acc.settleOpenBlocks()
    if (outcome.status === 'completed') {
      streamer.flushDeltas()
      this.deps.store.finalize(spec.messageId, 'sent', acc.blocks, this.metadata())
      this.deps.events.emit(chatStreamCompleted, {
        ...header(),
        seq: streamer.seq + 1,
        status: 'sent',
        usage: this.usage
      })
      return outcome
    }
    const failure =
      outcome.status === 'aborted'
        ? { code: 'user_cancelled' as const, message: 'Stopped by the user.', status: 'cancelled' as const }
        : { code: outcome.code, message: outcome.message, status: 'error' as const, detail: outcome.detail }
    this.stampPlan(
      outcome.status === 'aborted' ? 'aborted' : outcome.code === 'tool_call_limit' ? 'max_steps' : 'error'
    )
    const detail = 'detail' in failure ? (failure.detail ?? {}) : {}
    acc.addError(failure.code, failure.message, detail)
    streamer.flushDeltas()
    this.deps.store.finalize(spec.messageId, failure.status, acc.blocks, this.metadata())
    this.deps.events.emit(chatStreamFailed, {
      ...header(),
      seq: streamer.seq + 1,
      status: failure.status,
      error: { code: failure.code, message: failure.message, ...detail }
    })
    return outcome
  }

  /** The provider request failed and is retried after a wait: the user sees a countdown. */
  private announceRetry(event: Extract<LLMCoreStreamEvent, { type: 'retry' }>): void {
    const { spec } = this
    this.deps.events.emit(chatStreamRetrying, {
      sessionId: spec.session.id,
      messageId: spec.messageId,
      runId: spec.runId,
      attempt: event.attempt,
      maxRetries: event.max_retries,
      delayMs: event.delay_ms,
      retryAt: Date.now() + event.delay_ms,
      category: event.category,
      message: event.error_message
    })
  }

  private stampPlan(reason: PlanBlockData['terminalReason']): void {
    const block = this.acc.getOf(`plan-${this.spec.messageId}`, 'plan')
    if (!block || block.data.entries.every((e) => e.status === 'completed')) return
    this.acc.update(block.id, 'plan', { data: { ...block.data, terminalReason: reason } })
  }

  private metadata(): Record<string, unknown> {
    return { providerId: this.spec.providerId, modelId: this.spec.modelId, usage: this.usage }
  }
}
