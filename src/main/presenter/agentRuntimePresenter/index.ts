import { randomUUID } from 'node:crypto'
import { AppError } from '@shared/errors'
import { StorageFaultError } from '../sqlitePresenter/storageFaults'
import { INTERNAL_MESSAGE } from '../../bridge/router'
import type { WebSearchMode } from '@shared/types/webSearch'
import type { ChatImageInput, ChatMessageView, QueuedInput, StreamCursor } from '@shared/types/chat'
import type { AttachmentInput, MessageFile } from '@shared/types/attachments'
import type {
  GenerationSettings,
  MessageBlock,
  MessageRecord,
  SessionRecord,
  UserMessageContent
} from '@shared/types/session'
import type { LLMCoreStreamEvent, LLMRequest } from '@shared/types/llm'
import type { PlanSnapshot } from '@shared/contracts/events/tools.events'
import {
  chatMessageCreated,
  chatMessagesSuperseded,
  chatBranchChanged,
  chatQueueChanged,
  chatStreamDelta,
  chatStreamFailed
} from '@shared/contracts/events/chat.events'
import { isEvent, type EventSink } from '../../bridge/events'
import type { EventDef, EventPayload } from '@shared/contracts/define'
import { Hook } from '../hook'
import type { SqlitePresenter } from '../sqlitePresenter'
import type { SessionPresenter } from '../sessionPresenter'
import type { TapePresenter } from '../tapePresenter'
import type { PermissionPresenter } from '../permission'
import type { ToolPresenter } from '../toolPresenter'
import { ChatRun, type RunDeps, type RunOutcome } from './runLoop'
import type { AgentTurnBase, AgentTurns, TurnRun } from './agentTurns'
import { agentOfModel } from '@shared/types/acp'
import type { ModelLimits } from './contextBuilder'
import { applyAnswer, denyEffect } from './interactionAnswers'
import { titleFrom, type TurnAttachments } from './turnInputs'
import { MessageHistory } from './messageHistory'
import { ChatBranches } from '../sessionPresenter/chatBranches'
import { SteeringQueue } from './steeringQueue'
import { ChatTitler } from './titleNamer'
import type { StorageGuard } from '../sqlitePresenter/storageGuard'

export { LoopRuntimePort } from './runtimePort'
export type { ModelLimits } from './contextBuilder'

export interface AgentRuntimeDeps {
  sqlite: Pick<SqlitePresenter, 'db' | 'transaction'>
  /** Storage faults: a send is refused while one lasts, and a run ends with it (disk full, folder removed). */
  storage?: Pick<StorageGuard, 'recognize' | 'assertWritable' | 'onChange'>
  sessions: Pick<
    SessionPresenter,
    | 'create'
    | 'require'
    | 'rename'
    | 'setStatus'
    | 'messages'
    | 'interactions'
    | 'pauseMessage'
    | 'resolveInteraction'
    | 'branches'
  >
  tape: Pick<TapePresenter, 'inheritedView' | 'appendAnchor' | 'appendEvent'>
  llm: {
    coreStream(request: LLMRequest, signal: AbortSignal): AsyncIterable<LLMCoreStreamEvent>
    getDefaultModel(): { providerId: string; modelId: string } | null
    modelLimits(providerId: string, modelId: string): Promise<ModelLimits>
    /** Whether the model's provider has its own web search (absent: none has). */
    hasNativeSearch?(providerId: string, modelId: string): boolean
  }
  /** Settings › Web search's choice for chats that made none (absent: the app's engine). */
  webSearchMode?: () => WebSearchMode
  tools: RunDeps['tools'] & Pick<ToolPresenter, 'sessionDataDir'>
  permissions: Pick<PermissionPresenter, 'decide' | 'evaluate' | 'consume'>
  /** A chat whose model is an ACP agent runs its turns through these (acpPresenter/chatTurns.ts). */
  agentTurns?: AgentTurns
  events: EventSink
  newId?: () => string
  log?: (message: string) => void
  /** Whether a new chat is named by its model after the first answer (the `autoTitle` setting). */
  autoTitle?: () => boolean
  workspaces: {
    /** The folder a new chat works in (validated), or null for its own scratch folder. */
    forNewChat(requested: string | null | undefined): string | null
    /** Creates a chat's scratch folder if it is missing (chats from before scratch folders existed). */
    ensure(path: string): string
  }
  deltaIntervalMs?: number
  /** Attached files: stored by hash, resolved for a send, read back for the model. */
  attachments?: TurnAttachments
  /**
   * What a new chat starts with: Settings' default instructions and parameters, or the chosen
   * assistant's (its model, parameters and tool set, applied once the chat exists).
   */
  newChatSetup?: (assistantId: string | undefined) => NewChatSetup
}

export interface NewChatSetup {
  model?: { providerId: string; modelId: string }
  generationSettings: GenerationSettings
  /** Runs right after the session is created (the assistant's tool and server switches). */
  apply?: (sessionId: string) => void
}

export interface TurnAccepted {
  sessionId: string
  started: boolean
  userMessageId: string | null
  assistantMessageId: string | null
  queued: QueuedInput | null
}

export type NewSessionOptions = Partial<Pick<SessionRecord, 'providerId' | 'modelId' | 'permissionMode'>> & {
  /** A folder to work in; null asks for a scratch folder; absent means the default workspace from Settings. */
  workspaceDir?: string | null
  /** An assistant from the library: its instructions, parameters, model (unless one is given) and tools. */
  assistantId?: string
  /** Chosen in the new-chat composer: replaces the defaults or the assistant's values as a whole. */
  generationSettings?: GenerationSettings
}

interface ActiveRun {
  run: ChatRun | TurnRun
  controller: AbortController
  done: Promise<void>
}

/**
 * The chat loop's front: accepts turns, runs one ChatRun per session at a time, pauses and
 * resumes on interactions, stops, queues steering input and recovers after a crash.
 */
export class AgentRuntimePresenter {
  private readonly active = new Map<string, ActiveRun>()
  private readonly queue: SteeringQueue
  private readonly titler: ChatTitler
  private readonly cursors = new Map<string, StreamCursor>()
  /** Messages whose end could not be saved (storage fault): what the client reads instead of the row. */
  private readonly unsavedEnds = new Map<string, NonNullable<ChatRun['unsavedEnd']>>()
  private readonly newId: () => string
  private readonly history: MessageHistory
  private readonly stopped: Hook<string>
  private readonly streamed: Hook<string>
  /** What runs emit through: the renderer's events, and `streamed` for every delta. */
  private readonly runEvents: EventSink
  private disposed = false

  constructor(private readonly deps: AgentRuntimeDeps) {
    this.newId = deps.newId ?? (() => randomUUID())
    this.stopped = new Hook('agentRuntime.onStopped', deps.log)
    this.streamed = new Hook('agentRuntime.onStreamed', deps.log)
    this.runEvents = {
      emit: <E extends EventDef>(event: E, payload: EventPayload<E>) => {
        deps.events.emit(event, payload)
        if (isEvent(chatStreamDelta, event, payload)) this.streamed.fire(payload.sessionId)
      }
    }
    this.history = new MessageHistory({ messages: deps.sessions.messages, branches: deps.sessions.branches })
    this.queue = new SteeringQueue(deps.sqlite.db)
    this.titler = new ChatTitler({
      coreStream: (request, signal) => deps.llm.coreStream(request, signal),
      sessions: deps.sessions,
      enabled: () => deps.autoTitle?.() ?? false,
      log: deps.log
    })
    // The data folder cannot be written any more: running turns end now, with the reason.
    deps.storage?.onChange((fault) => {
      if (!fault) return
      const error = new StorageFaultError(fault.kind, fault.folder)
      for (const run of this.active.values()) run.controller.abort(error)
    })
  }

  /** Accepts a user message: starts a run now, or queues it behind the active one. */
  async sendMessage(input: {
    sessionId?: string
    text: string
    images?: ChatImageInput[]
    attachments?: AttachmentInput[]
    newSession?: NewSessionOptions
  }): Promise<TurnAccepted> {
    // Refused while the data folder cannot be written; checked again each time.
    this.deps.storage?.assertWritable()
    try {
      return await this.acceptMessage(input)
    } catch (error) {
      throw this.deps.storage?.recognize(error) ?? error
    }
  }

  private async acceptMessage(input: {
    sessionId?: string
    text: string
    images?: ChatImageInput[]
    attachments?: AttachmentInput[]
    newSession?: NewSessionOptions
  }): Promise<TurnAccepted> {
    const hasFiles = Boolean(input.images?.length || input.attachments?.length)
    if (!input.text.trim() && !hasFiles) throw new AppError('invalid_message', 'Message cannot be empty')
    // Checked before a session is created: a send with a missing file creates nothing.
    const attached = this.resolveAttachments(input.attachments ?? [])
    if (input.sessionId) this.deps.sessions.require(input.sessionId)
    if (input.sessionId && this.active.has(input.sessionId) && hasFiles)
      throw new AppError(
        'session_busy',
        'Attachments cannot be queued while a reply is streaming: wait for it or stop it first'
      )
    const pasted = await this.storeImages(input.images ?? [])
    const session = input.sessionId
      ? this.deps.sessions.require(input.sessionId)
      : this.createSession(input.text, input.newSession)
    this.assertNotPaused(session.id)
    if (this.active.has(session.id)) {
      const queued: QueuedInput = { id: this.newId(), text: input.text, createdAt: Date.now() }
      this.queue.add(session.id, queued)
      this.emitQueue(session.id)
      return { sessionId: session.id, started: false, userMessageId: null, assistantMessageId: null, queued }
    }
    // Input still queued from before a restart goes first, in the order it was written.
    return this.startQueuedTurn(session, [input.text], [...attached, ...pasted])
  }

  private resolveAttachments(inputs: AttachmentInput[]): MessageFile[] {
    if (inputs.length === 0) return []
    if (!this.deps.attachments) throw new AppError('not_supported', 'Attachments are not available here')
    return this.deps.attachments.resolve(inputs)
  }

  /** Pasted images (`images`, base64) go to the attachment store like any other file. */
  private async storeImages(images: ChatImageInput[]): Promise<MessageFile[]> {
    if (images.length === 0) return []
    if (!this.deps.attachments) throw new AppError('not_supported', 'Attachments are not available here')
    const stored: MessageFile[] = []
    for (const image of images) {
      const name = image.name ?? `image.${image.mimeType.split('/')[1] ?? 'png'}`
      const view = await this.deps.attachments.addBytes(
        name,
        image.mimeType,
        Buffer.from(image.data, 'base64')
      )
      if (view.kind !== 'image') throw new AppError('attachment_unsupported', `${name} is not an image`)
      stored.push(...this.deps.attachments.resolve([{ sha256: view.sha256, name }]))
    }
    return stored
  }

  /** Stops the run, or denies every open interaction of a paused message. */
  async stop(sessionId: string): Promise<{ stopped: boolean; messageId: string | null }> {
    this.deps.sessions.require(sessionId)
    if (this.queue.clear(sessionId)) this.emitQueue(sessionId)
    const active = this.active.get(sessionId)
    if (active) {
      active.controller.abort(new AppError('user_cancelled', 'Stopped by the user'))
      await active.done
      this.stopped.fire(sessionId)
      return { stopped: true, messageId: active.run.spec.messageId }
    }
    const paused = [
      ...new Set(
        this.deps.sessions.interactions.list({ sessionId, status: 'pending' }).map((i) => i.messageId)
      )
    ]
    for (const messageId of paused) {
      this.stopPaused(sessionId, messageId)
      this.deps.agentTurns?.stopParked(messageId)
    }
    if (paused.length > 0) this.stopped.fire(sessionId)
    return { stopped: paused.length > 0, messageId: paused[0] ?? null }
  }

  /** The user stopped this session's run or paused message (subagent runs it started end with it). */
  onStopped(listener: (sessionId: string) => void): () => void {
    return this.stopped.on(listener)
  }

  /** A session's live message changed (a stream delta went out). */
  onStreamed(listener: (sessionId: string) => void): () => void {
    return this.streamed.on(listener)
  }

  /** Records one answer; the last open answer of a message starts the resumed run. */
  async respondToolInteraction(input: {
    sessionId: string
    messageId: string
    interactionId: string
    response: unknown
  }): Promise<{ accepted: true; remaining: number; resumed: boolean }> {
    const interaction = this.deps.sessions.interactions.require(input.interactionId)
    if (interaction.sessionId !== input.sessionId || interaction.messageId !== input.messageId) {
      throw new AppError(
        'interaction_not_found',
        `Interaction ${input.interactionId} does not belong to message ${input.messageId}`
      )
    }
    if (interaction.status !== 'pending')
      throw new AppError(
        'interaction_not_pending',
        `Interaction ${interaction.id} was already ${interaction.status}`
      )
    const message = this.deps.sessions.messages.require(input.messageId)
    const effect = applyAnswer(interaction, message, input.response)
    if (effect.permission) {
      // First: an "always" answer whose rule cannot be stored fails here, before anything changes.
      const { request, decision, rule } = effect.permission
      this.deps.permissions.decide(request, decision, rule)
    }
    const { remaining } = this.deps.sqlite.transaction(() => {
      this.deps.sessions.messages.upsertBlocks(message.id, effect.blocks)
      return this.deps.sessions.resolveInteraction(interaction.id, effect.status, effect.response)
    })
    this.emitBlocks(input.sessionId, message.id, `answer-${interaction.id}`, effect.blocks)
    if (remaining > 0) return { accepted: true, remaining, resumed: false }
    await this.resume(this.deps.sessions.require(input.sessionId), message.id)
    return { accepted: true, remaining: 0, resumed: true }
  }

  /**
   * A new answer to the user message `messageId` answers: a new variant beside the old answer,
   * shown from now on. The old one (and what followed it) stays, one switch away.
   */
  async retry(sessionId: string, messageId: string): Promise<TurnAccepted> {
    const session = this.requireIdle(sessionId)
    const target = this.deps.sessions.messages.require(messageId)
    if (target.sessionId !== sessionId || target.role !== 'assistant')
      throw new AppError('invalid_input', 'Retry takes an assistant message of this session')
    const user = this.history.userMessageBefore(session, target.id)
    if (!user) throw new AppError('invalid_input', 'There is no user message to answer again')
    this.supersede(session, this.history.shownFrom(session, target.id), 'retry')
    const assistant = this.createAssistant(session.id, user.id)
    return this.startRun(session, user, assistant)
  }

  /** A new variant of a user message with the new text, answered anew; the old prompt and its answers stay as variant. */
  async editAndResend(sessionId: string, messageId: string, text: string): Promise<TurnAccepted> {
    const session = this.requireIdle(sessionId)
    const target = this.deps.sessions.messages.require(messageId)
    if (target.sessionId !== sessionId || target.role !== 'user')
      throw new AppError('invalid_input', 'Only a user message of this session can be edited')
    if (!text.trim()) throw new AppError('invalid_message', 'Message cannot be empty')
    const tree = this.history.tree(session)
    if (!tree.has(target.id)) throw new AppError('invalid_input', 'That message can no longer be edited')
    this.supersede(session, this.history.shownFrom(session, target.id), 'edit')
    return this.startTurn(
      session,
      { text, files: target.content?.files ?? [], links: [] },
      tree.parentOf(target.id)
    )
  }

  /** Shows another variant of a message (and the branch below it); the choice is kept on the tape. */
  selectVariant(sessionId: string, messageId: string): { changed: boolean } {
    this.requireIdle(sessionId)
    const changed = this.deps.sessions.branches.select(sessionId, messageId)
    if (changed) this.deps.events.emit(chatBranchChanged, { sessionId, reason: 'variant' })
    return { changed }
  }

  /** Hides a prompt with its answers, or one answer, from the chat, the context and exports. */
  deleteMessage(sessionId: string, messageId: string): { messageIds: string[] } {
    this.requireIdle(sessionId)
    const messageIds = this.deps.sessions.branches.remove(sessionId, messageId)
    if (messageIds.length) this.deps.events.emit(chatBranchChanged, { sessionId, reason: 'delete' })
    return { messageIds }
  }

  /** Undoes a delete. */
  restoreMessages(sessionId: string, messageIds: string[]): { messageIds: string[] } {
    this.requireIdle(sessionId)
    const restored = this.deps.sessions.branches.restore(sessionId, messageIds)
    if (restored.length) this.deps.events.emit(chatBranchChanged, { sessionId, reason: 'restore' })
    return { messageIds: restored }
  }

  /** Windows drop the replaced messages before the new turn's first event reaches them, so old and new never show together. */
  private supersede(session: SessionRecord, messageIds: string[], reason: 'retry' | 'edit'): void {
    if (messageIds.length)
      this.deps.events.emit(chatMessagesSuperseded, { sessionId: session.id, messageIds, reason })
  }

  listQueue(sessionId: string): QueuedInput[] {
    return this.queue.list(sessionId)
  }

  cancelQueued(sessionId: string, inputId: string): boolean {
    if (!this.queue.remove(sessionId, inputId)) return false
    this.emitQueue(sessionId)
    return true
  }

  /** Messages with their live state: a streaming message shows what its deltas have shown. */
  getMessages(
    sessionId: string,
    page: { beforeOrderSeq?: number; limit?: number } = {}
  ): { messages: ChatMessageView[]; hasMore: boolean } {
    this.deps.sessions.require(sessionId)
    const { messages, hasMore, tree } = this.deps.sessions.branches.page(sessionId, page)
    return {
      messages: messages.map((m) => ({ ...this.view(m), variants: ChatBranches.variantsIn(tree, m.id) })),
      hasMore
    }
  }

  getMessage(messageId: string): ChatMessageView {
    const message = this.deps.sessions.messages.require(messageId)
    return {
      ...this.view(message),
      variants: this.deps.sessions.branches.variantsOf(message.sessionId, message.id)
    }
  }

  /** After a crash: streaming messages become `error` (partial text kept); paused ones stay answerable. */
  recoverOnStart(): MessageRecord[] {
    const recovered = this.deps.sessions.messages.recoverInterrupted()
    for (const sessionId of new Set(recovered.map((m) => m.sessionId))) {
      const paused = this.deps.sessions.interactions.list({ sessionId, status: 'pending' }).length > 0
      this.deps.sessions.setStatus(sessionId, paused ? 'awaiting_interaction' : 'idle')
    }
    return recovered
  }

  /** A deleted session: its run is aborted (nothing left to write to) and its queue dropped. */
  forgetSession(sessionId: string): void {
    this.queue.clear(sessionId)
    this.titler.forget(sessionId)
    this.deps.agentTurns?.forgetSession(sessionId)
    this.active.get(sessionId)?.controller.abort(new AppError('session_deleted', 'The session was deleted'))
  }

  /** Routes `update_plan` to the session's running turn. */
  publishPlan(snapshot: PlanSnapshot): void {
    this.active.get(snapshot.sessionId)?.run.publishPlan(snapshot)
  }

  isRunning(sessionId: string): boolean {
    return this.active.has(sessionId)
  }

  /** Waits for the session's current run and the title it may be asking for (tests, shutdown). */
  async idle(sessionId: string): Promise<void> {
    while (this.active.has(sessionId)) await this.active.get(sessionId)!.done
    await this.titler.settled(sessionId)
  }

  async dispose(): Promise<void> {
    this.disposed = true // queued input stays in SQLite for the next start
    const runs = [...this.active.values()]
    for (const run of runs) run.controller.abort(new AppError('shutdown', 'The app is closing'))
    this.deps.agentTurns?.dispose()
    await Promise.all([...runs.map((r) => r.done), this.titler.dispose()])
  }

  private createSession(text: string, options: NewSessionOptions = {}): SessionRecord {
    const setup = this.deps.newChatSetup?.(options.assistantId)
    const model =
      options.providerId && options.modelId
        ? { providerId: options.providerId, modelId: options.modelId }
        : (setup?.model ?? this.deps.llm.getDefaultModel())
    if (!model) throw new AppError('no_model', 'Choose a model for this chat (no default model is set)')
    const session = this.deps.sessions.create({
      title: titleFrom(text),
      providerId: model.providerId,
      modelId: model.modelId,
      workspaceDir: this.deps.workspaces.forNewChat(options.workspaceDir),
      permissionMode: options.permissionMode,
      generationSettings: options.generationSettings ?? setup?.generationSettings
    })
    setup?.apply?.(session.id)
    this.titler.remember(session, text)
    return session
  }

  /** `parentId`: what the prompt continues (an edit: the edited prompt's parent); default the chosen branch's end. */
  private startTurn(
    session: SessionRecord,
    content: UserMessageContent,
    parentId: string | null = this.history.tail(session)
  ): Promise<TurnAccepted> {
    this.resolveModel(session) // fail before anything is written
    // The prompt and its answer in one commit (one write to the database per turn start, not two).
    const { user, assistant } = this.deps.sqlite.transaction(() => {
      const created = this.deps.sessions.messages.appendUserMessage(session.id, content, { parentId })
      this.showNew(session.id, created.id, parentId)
      return { user: created, assistant: this.insertAssistant(session.id, created.id) }
    })
    this.deps.events.emit(chatMessageCreated, { sessionId: session.id, message: user })
    this.deps.events.emit(chatMessageCreated, { sessionId: session.id, message: assistant })
    return this.startRun(session, user, assistant)
  }

  private createAssistant(sessionId: string, parentId: string): MessageRecord {
    const assistant = this.deps.sqlite.transaction(() => this.insertAssistant(sessionId, parentId))
    this.deps.events.emit(chatMessageCreated, { sessionId, message: assistant })
    return assistant
  }

  /** Inside the caller's transaction. */
  private insertAssistant(sessionId: string, parentId: string): MessageRecord {
    const created = this.deps.sessions.messages.createAssistantMessage(sessionId, { parentId })
    this.showNew(sessionId, created.id, parentId)
    return created
  }

  /** A new variant is the one shown, even where the user had picked an older one there before. */
  private showNew(sessionId: string, messageId: string, parentId: string | null): void {
    if (!this.deps.sessions.branches.isBranched(sessionId)) return // a straight line: nothing to pick
    const tree = this.deps.sessions.branches.tree(sessionId)
    if (tree.childrenOf(parentId).length > 1) this.deps.sessions.branches.select(sessionId, messageId)
  }

  private async startRun(
    session: SessionRecord,
    user: MessageRecord | null,
    assistant: MessageRecord,
    grantedBlockIds: string[] = []
  ): Promise<TurnAccepted> {
    const model = this.resolveModel(session)
    this.deps.workspaces.ensure(session.workspaceDir)
    const controller = new AbortController()
    const base = {
      session,
      messageId: assistant.id,
      runId: this.newId(),
      providerId: model.providerId,
      modelId: model.modelId,
      userMessage: user,
      initialBlocks: assistant.blocks,
      signal: controller.signal
    }
    const agentId = agentOfModel(model)
    const run = agentId
      ? this.agentTurns().start(this.agentTurnBase(), { ...base, agentId })
      : new ChatRun(this.runDeps(), {
          ...base,
          limits: () => this.deps.llm.modelLimits(model.providerId, model.modelId),
          grantedBlockIds
        })
    const entry: ActiveRun = { run, controller, done: Promise.resolve() }
    this.active.set(session.id, entry)
    this.deps.sessions.setStatus(session.id, 'generating')
    entry.done = run.run().then(
      (outcome) => this.afterRun(session.id, entry, outcome),
      (error: unknown) => {
        this.deps.log?.(`chat run crashed: ${String(error)}`)
        const fault = this.deps.storage?.recognize(error)
        const outcome = fault
          ? { status: 'error' as const, code: 'storage' as const, message: fault.message }
          : { status: 'error' as const, code: 'internal' as const, message: INTERNAL_MESSAGE }
        // Whatever happened, the client hears that the run ended (it would spin forever).
        this.deps.events.emit(chatStreamFailed, {
          sessionId: session.id,
          messageId: assistant.id,
          runId: base.runId,
          seq: run.streamer.seq + 1,
          status: 'error',
          error: { code: outcome.code, message: outcome.message }
        })
        this.afterRun(session.id, entry, outcome)
      }
    )
    return {
      sessionId: session.id,
      started: true,
      userMessageId: user?.id ?? null,
      assistantMessageId: assistant.id,
      queued: null
    }
  }

  private afterRun(sessionId: string, entry: ActiveRun, outcome: RunOutcome): void {
    this.cursors.set(entry.run.spec.messageId, { runId: entry.run.spec.runId, seq: entry.run.streamer.seq })
    if (entry.run instanceof ChatRun && entry.run.unsavedEnd)
      this.unsavedEnds.set(entry.run.spec.messageId, entry.run.unsavedEnd)
    if (this.active.get(sessionId) === entry) this.active.delete(sessionId)
    const status =
      outcome.status === 'paused' ? 'awaiting_interaction' : outcome.status === 'error' ? 'error' : 'idle'
    try {
      this.deps.sessions.setStatus(sessionId, status)
    } catch (error) {
      this.deps.log?.(`session status not saved: ${String(error)}`) // the session was deleted meanwhile
      return
    }
    if (outcome.status === 'completed' && !this.disposed && entry.run instanceof ChatRun)
      this.titler.afterAnswer(sessionId, entry.run.spec)
    if (outcome.status !== 'paused' && outcome.status !== 'aborted') this.drainQueue(sessionId)
  }

  /** Queued steering input becomes the next turn (several queued texts become one message). */
  private drainQueue(sessionId: string): void {
    if (this.disposed || !this.queue.has(sessionId)) return
    this.startQueuedTurn(this.deps.sessions.require(sessionId), [], []).catch((error: unknown) =>
      this.deps.log?.(`queued input could not start: ${String(error)}`)
    )
  }

  /**
   * A turn whose message is the session's queued input followed by `texts`. The queued items
   * leave the queue only once the turn has started, so a turn that cannot start loses nothing.
   */
  private async startQueuedTurn(
    session: SessionRecord,
    texts: string[],
    files: UserMessageContent['files']
  ): Promise<TurnAccepted> {
    const queued = this.queue.list(session.id)
    const text = [...queued.map((q) => q.text), ...texts].filter((t) => t !== '').join('\n\n')
    const accepted = await this.startTurn(session, { text, files, links: [] })
    if (queued.length) {
      for (const item of queued) this.queue.remove(session.id, item.id)
      this.emitQueue(session.id)
    }
    return accepted
  }

  private async resume(session: SessionRecord, messageId: string): Promise<void> {
    if (this.active.has(session.id))
      throw new AppError('session_busy', 'A run is already active in this session')
    const interactions = this.deps.sessions.interactions.list({ messageId })
    const message = this.deps.sessions.messages.require(messageId)
    const granted = new Set(interactions.filter((i) => i.status === 'granted').map((i) => i.toolCallId))
    const grantedBlockIds = message.blocks
      .filter((b) => b.kind === 'tool_call' && b.status === 'pending' && granted.has(b.toolCall?.id ?? ''))
      .map((b) => b.id)
    const user = this.history.userMessageBefore(session, message.id)
    this.deps.sessions.messages.setStatus(messageId, 'streaming')
    await this.startRun(session, user, message, grantedBlockIds)
  }

  private stopPaused(sessionId: string, messageId: string): void {
    const message = this.deps.sessions.messages.require(messageId)
    const open = this.deps.sessions.interactions.list({ messageId, status: 'pending' })
    const changed = new Map<string, MessageBlock>()
    for (const interaction of open)
      for (const block of denyEffect(interaction, {
        ...message,
        blocks: message.blocks.map((b) => changed.get(b.id) ?? b)
      }))
        changed.set(block.id, block)
    const errorBlock: MessageBlock = {
      id: `stop-${this.newId()}`,
      kind: 'error',
      status: 'error',
      text: 'Stopped by the user.',
      data: { code: 'user_cancelled' },
      createdAt: Date.now(),
      updatedAt: Date.now()
    }
    const blocks = [...changed.values(), errorBlock]
    this.deps.sqlite.transaction(() => {
      this.deps.sessions.interactions.resolveAll(messageId, 'denied', { reason: 'stopped' })
      this.deps.sessions.messages.finalizeAssistantMessage(messageId, { status: 'cancelled', blocks })
    })
    const runId = `stop-${this.newId()}`
    this.emitBlocks(sessionId, messageId, runId, blocks)
    this.deps.events.emit(chatStreamFailed, {
      sessionId,
      messageId,
      runId,
      seq: 2,
      status: 'cancelled',
      error: { code: 'user_cancelled', message: 'Stopped by the user.' }
    })
    this.deps.sessions.setStatus(sessionId, 'idle')
  }

  private view(message: MessageRecord): ChatMessageView {
    const active = this.active.get(message.sessionId)
    // A run that has settled its message (its terminal event is out) is still registered for a
    // moment: a read then gets the settled message, not a 'streaming' one that never ends.
    const live = message.status === 'pending' || message.status === 'streaming'
    if (active && active.run.spec.messageId === message.id && live) {
      const { streamer } = active.run
      streamer.flushDeltas() // the state returned must match the cursor exactly
      const stream = { runId: active.run.spec.runId, seq: streamer.seq }
      // SQLite refused the last batch, so it was not sent: the stored state is the one at `seq`.
      if (streamer.hasUnsent) return { ...message, status: 'streaming', stream }
      return { ...message, status: 'streaming', blocks: structuredClone(active.run.acc.blocks), stream }
    }
    const unsaved = this.unsavedEnds.get(message.id)
    const ended = unsaved && message.status === 'streaming' ? { ...message, ...unsaved } : message
    return { ...ended, stream: this.cursors.get(message.id) ?? null }
  }

  private runDeps(): RunDeps {
    return {
      coreStream: (request, signal) => this.deps.llm.coreStream(request, signal),
      tools: this.deps.tools,
      turns: this,
      context: {
        tape: this.deps.tape,
        coreStream: (r, s) => this.deps.llm.coreStream(r, s),
        log: this.deps.log,
        attachments: this.deps.attachments?.reader()
      },
      store: {
        appendStreamBatch: (messageId, batch) => {
          try {
            this.deps.sessions.messages.appendStreamBatch(messageId, batch)
          } catch (error) {
            // A storage fault is recorded here, which ends the run (see the constructor).
            throw this.deps.storage?.recognize(error) ?? error
          }
        },
        finalize: (messageId, status, blocks, metadata) =>
          void this.deps.sessions.messages.finalizeAssistantMessage(messageId, { status, blocks, metadata }),
        pause: (messageId, blocks, interactions) =>
          this.deps.sessions.pauseMessage(messageId, { blocks, interactions }).interactions
      },
      events: this.runEvents,
      newId: this.newId,
      hasQueuedInput: (sessionId) => this.queue.has(sessionId),
      deltaIntervalMs: this.deps.deltaIntervalMs,
      log: this.deps.log,
      storageFault: (error) => this.deps.storage?.recognize(error) ?? null,
      webSearch: {
        defaultMode: () => this.deps.webSearchMode?.() ?? 'app',
        hasNativeSearch: (providerId, modelId) =>
          this.deps.llm.hasNativeSearch?.(providerId, modelId) ?? false
      }
    }
  }

  private agentTurns(): AgentTurns {
    if (!this.deps.agentTurns) throw new AppError('acp_unavailable', 'ACP agents are not available here')
    return this.deps.agentTurns
  }

  /** What an agent's turn borrows from the loop: the message store and the streams. */
  private agentTurnBase(): AgentTurnBase {
    const { store, events, newId, deltaIntervalMs, log } = this.runDeps()
    return { store, events, newId, deltaIntervalMs, log }
  }

  private resolveModel(session: SessionRecord): { providerId: string; modelId: string } {
    if (session.providerId && session.modelId) {
      const agentId = agentOfModel(session)
      // An agent chat fails before anything is written when its agent is gone or turned off.
      if (agentId && !this.deps.agentTurns?.isEnabled(agentId))
        throw new AppError('acp_agent_disabled', `Agent ${agentId} is turned off in Settings › Agents`)
      return { providerId: session.providerId, modelId: session.modelId }
    }
    const model = this.deps.llm.getDefaultModel()
    if (!model) throw new AppError('no_model', 'Choose a model for this chat (no default model is set)')
    return model
  }

  private assertNotPaused(sessionId: string): void {
    if (this.deps.sessions.interactions.list({ sessionId, status: 'pending' }).length > 0) {
      throw new AppError('session_busy', 'Answer the open permission request or question first (or stop)')
    }
  }

  private requireIdle(sessionId: string): SessionRecord {
    const session = this.deps.sessions.require(sessionId)
    if (this.active.has(sessionId)) throw new AppError('session_busy', 'Stop the running reply first')
    this.assertNotPaused(sessionId)
    return session
  }

  private emitBlocks(sessionId: string, messageId: string, runId: string, blocks: MessageBlock[]): void {
    if (blocks.length === 0) return
    const now = Date.now()
    this.runEvents.emit(chatStreamDelta, {
      sessionId,
      messageId,
      runId,
      seq: 1,
      ops: blocks.map((block) => ({ op: 'upsert' as const, block: { ...block, updatedAt: now } }))
    })
  }

  private emitQueue(sessionId: string): void {
    this.deps.events.emit(chatQueueChanged, { sessionId, items: this.listQueue(sessionId) })
  }
}
