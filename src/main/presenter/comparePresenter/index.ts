import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { z } from 'zod'
import { AppError } from '@shared/errors'
import { compareUpdated } from '@shared/contracts/events/compare.events'
import { chatMessageCreated } from '@shared/contracts/events/chat.events'
import {
  StartCompareInput,
  type CompareRunView,
  type CompareView,
  type CompareStatus
} from '@shared/types/compare'
import type { MessageBlock } from '@shared/types/blocks'
import type { MessageRecord, PendingInteraction, SessionRecord, SubagentMeta } from '@shared/types/session'
import type { JsonObject, TapeEntry } from '@shared/types/tape'
import type { ProviderView } from '@shared/types/provider'
import type { EventSink } from '../../bridge/events'
import type { ChatTurns } from '../toolPresenter/runtimePorts'
import { finalAnswer } from '../subagentPresenter/handoff'
import {
  MAX_DIFF_VIEW_CHARS,
  RUN_FOLDER_PREFIX,
  applyToFolder,
  folderChanges,
  prepareRunFolder,
  removeRunFolder,
  sweepLeftovers,
  type RunFolder
} from './runFolders'

/** The slot id a compare run's child session carries (`subagentMeta.slotId`). */
export const COMPARE_SLOT = 'compare'
export const COMPARE_RESULT_EVENT = 'compare/result'

export interface CompareChatPort extends ChatTurns {
  respondToolInteraction(input: {
    sessionId: string
    messageId: string
    interactionId: string
    response: unknown
  }): Promise<{ accepted: true; remaining: number; resumed: boolean }>
}

export interface ComparePresenterDeps {
  sessions: {
    get(sessionId: string): SessionRecord | undefined
    require(sessionId: string): SessionRecord
    createSubagent(parentSessionId: string, input: { meta: SubagentMeta; title?: string }): SessionRecord
    updateSettings(
      sessionId: string,
      fields: Partial<Pick<SessionRecord, 'providerId' | 'modelId'>> & { workspaceDir?: string | null }
    ): SessionRecord
    messages: {
      get(messageId: string): MessageRecord | undefined
      appendUserMessage(
        sessionId: string,
        content: { text: string },
        placement: { parentId: string | null }
      ): MessageRecord
      createAssistantMessage(sessionId: string, placement: { parentId: string | null }): MessageRecord
      finalizeAssistantMessage(
        messageId: string,
        outcome: {
          status: 'sent'
          blocks?: Array<{ id: string; kind: 'content'; status: 'success'; text: string }>
          metadata?: Record<string, unknown>
        }
      ): MessageRecord
    }
    interactions: { list(filter: { sessionId?: string; status?: 'pending' }): PendingInteraction[] }
    branches: {
      tail(sessionId: string): string | null
      isBranched(sessionId: string): boolean
      tree(sessionId: string): { childrenOf(id: string | null): unknown[] }
      select(sessionId: string, messageId: string): unknown
    }
  }
  tape: {
    appendEvent(
      tapeId: string,
      name: string,
      data?: JsonObject,
      options?: { provenanceKey?: string }
    ): TapeEntry
    merge(forkTapeId: string, result: { entryIds?: readonly number[]; meta?: JsonObject }): unknown
    discard(forkTapeId: string, reason: string, meta?: JsonObject): unknown
  }
  /** The user's providers: a run's model must be an enabled model of an enabled provider. */
  providers: () => Promise<ProviderView[]>
  /** The chat loop the runs take their turns on. */
  chat: CompareChatPort
  events: EventSink
  /** Fork tapes of compare runs still open (a closed or killed app's runs): discarded at start. */
  openForks?: () => string[]
  /** Where run folders go (inside the scratch root, so they are workspaces) and their baselines (outside). */
  scratchRoot: string
  baselinesRoot: string
  now?: () => number
  newId?: () => string
  log?: (message: string) => void
}

interface LiveRun {
  view: CompareRunView
  folder: RunFolder | null
  patch: string
  /** The patch was read when the run settled (a run without it cannot be kept). */
  patchRead: boolean
  /** The run's turn and folder are ready (or failed); stop waits for it. */
  started: Promise<void>
  /** Settling has begun (no second settle). */
  settled: boolean
  /** Settled and its view final (status, files). */
  finished: boolean
  lastRefresh: number
}

interface LiveCompare {
  view: Omit<CompareView, 'runs'>
  runs: LiveRun[]
  /** The chat's folder at the start (the keep target). */
  folder: string
  busy: boolean
}

const REFRESH_EVERY_MS = 250
const HANDOVER_POLLS = 100

/**
 * Compares whole agent runs across models (docs/compare.md): each run is a child session on a
 * fork of the chat's tape, with its own model and its own copy of the chat's folder; the user
 * keeps one (its fork merges into the chat, its folder's changes apply to the chat's folder) and
 * the rest are discarded. Comparisons live for the app's run; a killed host's folders are swept
 * at the next start.
 */
export class ComparePresenter {
  private readonly compares = new Map<string, LiveCompare>()
  /** Child session id -> its compare and run. */
  private readonly children = new Map<string, { compareId: string; index: number }>()
  private readonly now: () => number
  private readonly newId: () => string
  private readonly log: (message: string) => void
  /** Resolves when the leftovers of a killed host are gone. */
  readonly ready: Promise<void>

  constructor(private readonly deps: ComparePresenterDeps) {
    this.now = deps.now ?? Date.now
    this.newId = deps.newId ?? (() => randomUUID().replaceAll('-', '').slice(0, 12))
    this.log = deps.log ?? (() => {})
    this.discardLeftoverForks()
    this.ready = sweepLeftovers(deps.scratchRoot, deps.baselinesRoot).then(
      (removed) => {
        for (const path of removed) this.log(`Removed a comparison folder a closed app left behind: ${path}`)
      },
      (error: unknown) => this.log(`compare: leftovers not swept: ${String(error)}`)
    )
  }

  /** Runs of an app that closed before one was kept are never kept: their forks are discarded. */
  private discardLeftoverForks(): void {
    for (const tapeId of this.deps.openForks?.() ?? []) {
      try {
        this.deps.tape.discard(tapeId, 'The app closed before a run was kept', {})
      } catch (error) {
        this.log(`compare: leftover fork ${tapeId} not discarded: ${String(error)}`)
      }
    }
  }

  async start(input: StartCompareInput): Promise<CompareView> {
    const parsed = StartCompareInput.safeParse(input)
    if (!parsed.success) throw new AppError('invalid_input', z.prettifyError(parsed.error))
    const { sessionId, prompt, models } = parsed.data
    const keys = models.map((m) => `${m.providerId}/${m.modelId}`)
    if (new Set(keys).size !== keys.length) throw new AppError('invalid_input', 'Each model can run once')
    const parent = this.deps.sessions.require(sessionId)
    if (parent.kind !== 'regular') throw new AppError('invalid_input', 'Only a chat can start a comparison')
    if (this.deps.chat.isRunning(sessionId) || parent.status === 'awaiting_interaction')
      throw new AppError('session_busy', 'The chat is busy; compare when its turn has ended')
    if (this.openCompare(sessionId))
      throw new AppError('compare_open', 'Keep or discard the chat’s open comparison first')
    const providers = await this.deps.providers()
    const names = models.map((m) => {
      const provider = providers.find((p) => p.id === m.providerId && p.enabled)
      const model = provider?.models.find((x) => x.id === m.modelId && x.enabled)
      if (!provider || !model)
        throw new AppError('invalid_input', `Not an enabled model: ${m.providerId}/${m.modelId}`)
      return model.name
    })
    await this.ready
    const compareId = this.newId()
    const at = this.now()
    const live: LiveCompare = {
      view: { compareId, sessionId, prompt, status: 'open', keptIndex: null, createdAt: at, updatedAt: at },
      runs: [],
      folder: parent.workspaceDir,
      busy: false
    }
    this.compares.set(compareId, live)
    live.runs = models.map((m, index) => {
      const run: LiveRun = {
        view: {
          index,
          providerId: m.providerId,
          modelId: m.modelId,
          modelName: names[index],
          status: 'preparing',
          childSessionId: null,
          assistantMessageId: null,
          answer: null,
          error: null,
          toolCalls: [],
          folder: null,
          folderNote: null,
          files: [],
          diff: '',
          diffTruncated: false,
          usage: null,
          cost: null,
          startedAt: at,
          endedAt: null,
          interactions: []
        },
        folder: null,
        patch: '',
        patchRead: false,
        started: Promise.resolve(),
        settled: false,
        finished: false,
        lastRefresh: 0
      }
      return run
    })
    // Each run is started on its own: one run's failure (a folder, a model) never stops the others.
    for (const run of live.runs) run.started = this.startRun(live, run, parent)
    this.changed(live)
    return this.view(live)
  }

  list(sessionId: string): CompareView[] {
    return [...this.compares.values()].filter((c) => c.view.sessionId === sessionId).map((c) => this.view(c))
  }

  get(compareId: string): CompareView {
    return this.view(this.require(compareId))
  }

  /** Stops one run; the others go on. */
  async stop(compareId: string, index: number): Promise<CompareView> {
    const live = this.require(compareId)
    const run = this.runOf(live, index)
    await run.started
    if (!run.settled && run.view.childSessionId) {
      await this.deps.chat.stop(run.view.childSessionId)
      this.follow(live, run)
      await Promise.race([this.waitSettled(run), delay(10_000)])
    }
    if (!run.settled) await this.settle(live, run, 'cancelled', 'Stopped.')
    else await this.waitSettled(run)
    return this.view(live)
  }

  async respond(input: {
    compareId: string
    index: number
    messageId: string
    interactionId: string
    response: unknown
  }): Promise<{ accepted: true; remaining: number; resumed: boolean }> {
    const run = this.runOf(this.require(input.compareId), input.index)
    if (!run.view.childSessionId || run.settled)
      throw new AppError('invalid_input', 'This run is not waiting for an answer')
    return this.deps.chat.respondToolInteraction({
      sessionId: run.view.childSessionId,
      messageId: input.messageId,
      interactionId: input.interactionId,
      response: input.response
    })
  }

  /**
   * Keeps one completed run. Its changes go to the chat's folder first (checked as a whole: a
   * conflict refuses the keep and changes nothing); then its fork merges into the chat, whose
   * next turn continues from its answer, and every other run is stopped and discarded.
   */
  async keep(compareId: string, index: number): Promise<CompareView> {
    const live = this.require(compareId)
    if (live.view.status !== 'open')
      throw new AppError('compare_closed', `This comparison was already ${live.view.status}`)
    if (live.busy) throw new AppError('compare_busy', 'The comparison is being kept or discarded')
    const kept = this.runOf(live, index)
    if (kept.view.status !== 'completed')
      throw new AppError(
        'invalid_input',
        `Only a completed run can be kept (this one is ${kept.view.status})`
      )
    if (this.deps.chat.isRunning(live.view.sessionId))
      throw new AppError('session_busy', 'The chat is busy; keep the run when its turn has ended')
    live.busy = true
    try {
      // Exactly the changes the column showed (read when the run settled), not what its folder holds now.
      if (kept.folder && !kept.patchRead)
        throw new AppError(
          'compare_changes_unknown',
          'This run’s changes could not be read; it cannot be kept'
        )
      if (kept.folder) await applyToFolder(kept.folder, kept.patch, live.folder)
      this.mergeKept(live, kept)
      live.view = { ...live.view, status: 'kept', keptIndex: index }
      await this.closeOthers(live, `Not kept: the user kept ${kept.view.modelName}`, kept)
    } finally {
      live.busy = false
    }
    this.changed(live)
    return this.view(live)
  }

  /** Keeps none: stops every run, discards every fork and removes every folder. */
  async discard(compareId: string): Promise<CompareView> {
    const live = this.require(compareId)
    if (live.view.status !== 'open')
      throw new AppError('compare_closed', `This comparison was already ${live.view.status}`)
    if (live.busy) throw new AppError('compare_busy', 'The comparison is being kept or discarded')
    live.busy = true
    try {
      live.view = { ...live.view, status: 'discarded' }
      await this.closeOthers(live, 'Discarded by the user', null)
    } finally {
      live.busy = false
    }
    this.changed(live)
    return this.view(live)
  }

  /** Hook: a child's status or open interactions changed. */
  sessionChanged(sessionId: string): void {
    const found = this.find(sessionId)
    if (found) this.follow(found.live, found.run)
  }

  /** Hook: a child streamed (its tool calls are refreshed at most every 250 ms). */
  sessionStreamed(sessionId: string): void {
    const found = this.find(sessionId)
    if (!found || found.run.settled || this.now() - found.run.lastRefresh < REFRESH_EVERY_MS) return
    found.run.lastRefresh = this.now()
    this.refreshCalls(found.run)
    this.changed(found.live)
  }

  /** Hook: sessions were deleted; a deleted chat's comparisons go with it (folders removed). */
  sessionsPurged(sessionIds: readonly string[]): void {
    const gone = new Set(sessionIds)
    for (const live of [...this.compares.values()]) {
      if (!gone.has(live.view.sessionId)) continue
      this.compares.delete(live.view.compareId)
      for (const run of live.runs) {
        if (run.view.childSessionId) this.children.delete(run.view.childSessionId)
        void run.started
          .then(() => (run.folder ? removeRunFolder(run.folder) : undefined))
          .catch((error: unknown) => this.log(`compare: folder not removed: ${String(error)}`))
      }
    }
  }

  // --- runs ---------------------------------------------------------------------------------

  private async startRun(live: LiveCompare, run: LiveRun, parent: SessionRecord): Promise<void> {
    const name = `${RUN_FOLDER_PREFIX}${live.view.compareId}-${run.view.index}`
    try {
      run.folder = await prepareRunFolder(parent.workspaceDir, {
        root: join(this.deps.scratchRoot, name),
        baseline: join(this.deps.baselinesRoot, `${name}.git`)
      })
      run.view = { ...run.view, folder: run.folder.kind, folderNote: run.folder.note }
      if (live.view.status !== 'open' || run.settled) return
      const child = this.deps.sessions.createSubagent(parent.id, {
        meta: {
          slotId: COMPARE_SLOT,
          displayName: run.view.modelName,
          runId: live.view.compareId,
          taskId: `run-${run.view.index + 1}`,
          // A run answers in the chat: its model gets the chat so far, not only the prompt.
          history: 'inherited'
        },
        title: `Compare · ${run.view.modelName}`.slice(0, 200)
      })
      this.deps.sessions.updateSettings(child.id, {
        providerId: run.view.providerId,
        modelId: run.view.modelId,
        workspaceDir: run.folder.workspace
      })
      this.children.set(child.id, { compareId: live.view.compareId, index: run.view.index })
      run.view = { ...run.view, childSessionId: child.id, status: 'running', startedAt: this.now() }
      this.changed(live)
      const accepted = await this.deps.chat.sendMessage({ sessionId: child.id, text: live.view.prompt })
      run.view = { ...run.view, assistantMessageId: accepted.assistantMessageId }
      this.follow(live, run)
    } catch (error) {
      await this.settle(live, run, 'error', error instanceof Error ? error.message : String(error))
    }
  }

  /** Where a run is now: running, waiting for the user, or settled (its answer read). */
  private follow(live: LiveCompare, run: LiveRun, polls = 0): void {
    if (run.settled || !run.view.childSessionId || !run.view.assistantMessageId) return
    const childId = run.view.childSessionId
    const session = this.deps.sessions.get(childId)
    if (!session) return void this.settle(live, run, 'error', 'The run’s session is gone.')
    if (this.deps.chat.isRunning(childId)) {
      if (run.view.status !== 'running' || run.view.interactions.length) {
        run.view = { ...run.view, status: 'running', interactions: [] }
        this.changed(live)
      }
      return
    }
    if (session.status === 'awaiting_interaction') {
      const pending = this.deps.sessions.interactions.list({ sessionId: childId, status: 'pending' })
      if (pending.length) {
        this.refreshCalls(run)
        run.view = { ...run.view, status: 'waiting', interactions: pending }
        return this.changed(live)
      }
    }
    // `generating` without a turn (or an answered pause) is the moment a turn hands over.
    if (
      (session.status === 'generating' || session.status === 'awaiting_interaction') &&
      polls < HANDOVER_POLLS
    )
      return void setTimeout(() => this.follow(live, run, polls + 1), 50)
    const message = this.deps.sessions.messages.get(run.view.assistantMessageId)
    if (!message) return void this.settle(live, run, 'error', 'The run’s answer is gone.')
    run.view = {
      ...run.view,
      toolCalls: toolCallsOf(message.blocks),
      usage: usageOf(message.metadata)
    }
    const answer = finalAnswer(message.blocks)
    if (message.status === 'sent' && answer) {
      run.view = { ...run.view, answer }
      return void this.settle(live, run, 'completed', null)
    }
    if (message.status === 'cancelled') return void this.settle(live, run, 'cancelled', 'Stopped.')
    const errorText = message.blocks
      .filter((b) => b.kind === 'error')
      .map((b) => b.text)
      .join('\n')
    void this.settle(live, run, 'error', errorText || `The run ended without an answer (${message.status}).`)
  }

  private async settle(
    live: LiveCompare,
    run: LiveRun,
    status: 'completed' | 'error' | 'cancelled',
    error: string | null
  ): Promise<void> {
    if (run.settled) return
    run.settled = true
    const endedAt = this.now()
    // The status changes once the run's files are read: a settled run shows its whole result.
    if (run.folder && live.view.status === 'open') {
      try {
        const changes = await folderChanges(run.folder)
        run.patch = changes.patch
        run.patchRead = true
        const diff = changes.patch.length > MAX_DIFF_VIEW_CHARS
        run.view = {
          ...run.view,
          files: changes.files,
          diff: diff ? changes.patch.slice(0, MAX_DIFF_VIEW_CHARS) : changes.patch,
          diffTruncated: diff
        }
      } catch (cause) {
        this.log(`compare ${live.view.compareId}: no diff for run ${run.view.index}: ${String(cause)}`)
      }
    }
    run.view = { ...run.view, status, error, interactions: [], endedAt }
    run.finished = true
    this.changed(live)
    for (const waiter of settledWaiters.get(run) ?? []) waiter()
    settledWaiters.delete(run)
  }

  private waitSettled(run: LiveRun): Promise<void> {
    if (run.finished) return Promise.resolve()
    return new Promise((resolve) => {
      const list = settledWaiters.get(run) ?? []
      list.push(resolve)
      settledWaiters.set(run, list)
    })
  }

  private refreshCalls(run: LiveRun): void {
    if (!run.view.assistantMessageId) return
    try {
      const { blocks } = this.deps.chat.getMessage(run.view.assistantMessageId)
      run.view = { ...run.view, toolCalls: toolCallsOf(blocks) }
    } catch (error) {
      this.log(`compare: tool calls not read: ${String(error)}`)
    }
  }

  /**
   * The kept run's answer becomes the chat's: a `compare/result` entry holding only the answer is
   * merged from its fork (as a subagent's is), and the prompt and answer join the chat's
   * messages, so the chat shows them and its next turn continues from them.
   */
  private mergeKept(live: LiveCompare, run: LiveRun): void {
    const child = this.deps.sessions.require(run.view.childSessionId!)
    const meta: JsonObject = {
      compareId: live.view.compareId,
      runIndex: run.view.index,
      providerId: run.view.providerId,
      modelId: run.view.modelId,
      childSessionId: child.id
    }
    const entry = this.deps.tape.appendEvent(
      child.tapeId,
      COMPARE_RESULT_EVENT,
      { ...meta, prompt: live.view.prompt, answer: run.view.answer },
      { provenanceKey: `compare:${live.view.compareId}:result` }
    )
    this.deps.tape.merge(child.tapeId, { entryIds: [entry.entryId], meta: { ...meta, status: 'kept' } })
    const sessionId = live.view.sessionId
    // After the end of the branch the chat shows, as a prompt of its own would be (chosen if it makes a variant).
    const { messages, branches } = this.deps.sessions
    const parentId = branches.tail(sessionId)
    const user = messages.appendUserMessage(sessionId, { text: live.view.prompt }, { parentId })
    if (branches.isBranched(sessionId) && branches.tree(sessionId).childrenOf(parentId).length > 1)
      branches.select(sessionId, user.id)
    const pending = messages.createAssistantMessage(sessionId, { parentId: user.id })
    const assistant = messages.finalizeAssistantMessage(pending.id, {
      status: 'sent',
      blocks: [
        { id: `compare-${live.view.compareId}`, kind: 'content', status: 'success', text: run.view.answer! }
      ],
      metadata: {
        providerId: run.view.providerId,
        modelId: run.view.modelId,
        usage: run.view.usage ?? undefined,
        compare: { compareId: live.view.compareId, runIndex: run.view.index, modelName: run.view.modelName }
      }
    })
    this.deps.events.emit(chatMessageCreated, { sessionId, message: user })
    this.deps.events.emit(chatMessageCreated, { sessionId, message: assistant })
  }

  /** Stops and discards every run but `kept`, and removes every folder. */
  private async closeOthers(live: LiveCompare, reason: string, kept: LiveRun | null): Promise<void> {
    for (const run of live.runs) {
      if (run === kept) continue
      await run.started
      if (!run.settled && run.view.childSessionId) {
        await this.deps.chat.stop(run.view.childSessionId).catch((error: unknown) => {
          this.log(`compare: run ${run.view.index} did not stop: ${String(error)}`)
        })
        await Promise.race([this.waitSettled(run), delay(5_000)])
      }
      if (!run.settled) await this.settle(live, run, 'cancelled', 'Stopped.')
      else await this.waitSettled(run)
      if (!run.view.childSessionId) continue
      const child = this.deps.sessions.get(run.view.childSessionId)
      if (!child) continue
      try {
        this.deps.tape.discard(child.tapeId, reason, {
          compareId: live.view.compareId,
          runIndex: run.view.index,
          providerId: run.view.providerId,
          modelId: run.view.modelId,
          status: run.view.status
        })
      } catch (error) {
        this.log(`compare: fork of run ${run.view.index} not discarded: ${String(error)}`)
      }
    }
    for (const run of live.runs) {
      if (run.view.childSessionId) this.children.delete(run.view.childSessionId)
      // A folder that will not go is swept at the next start; the keep itself stands.
      if (run.folder)
        await removeRunFolder(run.folder).catch((error: unknown) =>
          this.log(`compare: folder of run ${run.view.index} not removed: ${String(error)}`)
        )
    }
  }

  // --- bookkeeping ----------------------------------------------------------------------------

  private openCompare(sessionId: string): LiveCompare | undefined {
    return [...this.compares.values()].find((c) => c.view.sessionId === sessionId && c.view.status === 'open')
  }

  private require(compareId: string): LiveCompare {
    const live = this.compares.get(compareId)
    if (!live) throw new AppError('compare_not_found', `No comparison ${compareId}`)
    return live
  }

  private runOf(live: LiveCompare, index: number): LiveRun {
    const run = live.runs[index]
    if (!run) throw new AppError('invalid_input', `The comparison has no run ${index}`)
    return run
  }

  private find(sessionId: string): { live: LiveCompare; run: LiveRun } | null {
    const ref = this.children.get(sessionId)
    const live = ref && this.compares.get(ref.compareId)
    return live ? { live, run: live.runs[ref.index] } : null
  }

  private view(live: LiveCompare): CompareView {
    return { ...live.view, runs: live.runs.map((r) => r.view) }
  }

  private changed(live: LiveCompare): void {
    live.view = { ...live.view, updatedAt: Math.max(this.now(), live.view.updatedAt) }
    this.deps.events.emit(compareUpdated, { sessionId: live.view.sessionId, compare: this.view(live) })
  }
}

const settledWaiters = new WeakMap<LiveRun, Array<() => void>>()

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function toolCallsOf(blocks: readonly MessageBlock[]): CompareRunView['toolCalls'] {
  return blocks.flatMap((b) =>
    b.kind === 'tool_call' ? [{ id: b.toolCall.id, name: b.toolCall.name, status: b.status }] : []
  )
}

function usageOf(metadata: Record<string, unknown>): CompareRunView['usage'] {
  const usage = metadata.usage as { inputTokens?: unknown; outputTokens?: unknown } | undefined
  if (!usage || typeof usage.inputTokens !== 'number' || typeof usage.outputTokens !== 'number') return null
  return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }
}

export type { CompareStatus }
