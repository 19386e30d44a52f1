import type { MessageRecord, PendingInteraction, SessionRecord, SubagentMeta } from '@shared/types/session'
import {
  SUBAGENT_TERMINAL_STATUSES,
  type SubagentSlot,
  type SubagentTaskStatus
} from '@shared/types/subagents'
import type { JsonObject, TapeEntry } from '@shared/types/tape'
import { ACP_PROVIDER_ID } from '@shared/types/acp'
import type { ChatTurns } from '../toolPresenter/runtimePorts'
import { buildHandoff, finalAnswer, previewOf } from './handoff'
import type { SubagentStore, TaskRow } from './store'

/** What the runner needs from the chat loop (AgentRuntimePresenter): the one a run was started from. */
export type SubagentChatPort = ChatTurns

export interface TaskRunnerDeps {
  store: SubagentStore
  sessions: {
    get(sessionId: string): SessionRecord | undefined
    require(sessionId: string): SessionRecord
    createSubagent(parentSessionId: string, input: { meta: SubagentMeta; title?: string }): SessionRecord
    updateSettings(sessionId: string, fields: Pick<SessionRecord, 'providerId' | 'modelId'>): SessionRecord
    messages: { get(messageId: string): MessageRecord | undefined }
    interactions: { list(filter: { sessionId?: string; status?: 'pending' }): PendingInteraction[] }
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
  slotsOf(sessionId: string): SubagentSlot[]
  /** A task changed: persist is done, tell the UI and the waiting tool. */
  changed(runId: string): void
  /** A child's open interactions changed (empty list: answered). */
  interactionChanged(runId: string, task: TaskRow, interactions: PendingInteraction[]): void
  log: (message: string) => void
}

/** Why a live run stops early; `detached` (app shutdown) leaves children as they are. */
export type StopReason = 'cancelled' | 'timeout' | 'detached'

export interface LiveRun {
  runId: string
  /** The chat loop the children's turns run on. */
  turns: SubagentChatPort
  controller: AbortController
  reason: StopReason | null
}

/** `changed`: the child's status or open interactions; `streamed`: its live message. */
export type ChildListener = (kind: 'changed' | 'streamed') => void

const PREVIEW_EVERY_MS = 250
const HANDOVER_POLLS = 100

export const isTerminal = (status: SubagentTaskStatus) => SUBAGENT_TERMINAL_STATUSES.includes(status)

/**
 * Runs one task: starts its child session (a fork of the parent's tape) with the handoff, follows
 * it through pauses and resumes until it settles, takes its final answer and settles the fork on
 * the parent's tape (merge on success, discard otherwise). Everything it learns goes to SQLite
 * first, so a restart can pick the task up where it was.
 */
export class TaskRunner {
  readonly listeners = new Map<string, ChildListener>()

  constructor(private readonly deps: TaskRunnerDeps) {}

  async run(
    live: LiveRun,
    runId: string,
    index: number,
    previous: { title: string; result: string } | null
  ): Promise<TaskRow> {
    const { store } = this.deps
    const task = store.task(runId, index)
    if (isTerminal(task.status)) {
      this.settleTape(runId, index)
      return store.task(runId, index)
    }
    if (live.controller.signal.aborted) {
      if (live.reason === 'detached') return task
      this.end(runId, index, live.reason ?? 'cancelled', null, 'Cancelled before it started.')
      return store.task(runId, index)
    }
    if (!task.child_session_id) {
      try {
        await this.startChild(live, runId, task, previous)
      } catch (error) {
        this.end(runId, index, 'error', null, error instanceof Error ? error.message : String(error))
        return store.task(runId, index)
      }
    }
    await this.follow(live, runId, index)
    return store.task(runId, index)
  }

  /** Fork tape merge/discard for a finished task; safe to call again (a failure is retried). */
  settleTape(runId: string, index: number): void {
    const task = this.deps.store.task(runId, index)
    if (!isTerminal(task.status) || task.tape_state !== 'open' || !task.child_session_id) return
    const child = this.deps.sessions.get(task.child_session_id)
    if (!child) return
    const meta: JsonObject = {
      runId,
      taskId: task.task_id,
      slotId: task.slot_id,
      title: task.title,
      status: task.status,
      childSessionId: child.id
    }
    try {
      if (task.status === 'completed' && task.result !== null) {
        // One entry holding just the answer: merging it never drags the child's messages into the parent's history.
        const entry = this.deps.tape.appendEvent(
          child.tapeId,
          'subagent/result',
          { ...meta, result: task.result },
          {
            provenanceKey: `subagent:${runId}:${task.task_id}:result`
          }
        )
        this.deps.tape.merge(child.tapeId, {
          entryIds: [entry.entryId],
          meta: { ...meta, result: task.result }
        })
        this.deps.store.updateTask(runId, index, { tape_state: 'merged' })
      } else {
        this.deps.tape.discard(child.tapeId, task.error ?? task.status, meta)
        this.deps.store.updateTask(runId, index, { tape_state: 'discarded' })
      }
    } catch (error) {
      this.deps.log(`subagent ${runId}/${task.task_id}: fork tape not settled: ${String(error)}`)
    }
  }

  /** Marks a task finished (no-op if it already is) and settles its fork tape. */
  end(
    runId: string,
    index: number,
    status: SubagentTaskStatus,
    result: string | null,
    error: string | null
  ): void {
    const task = this.deps.store.task(runId, index)
    if (isTerminal(task.status)) return
    this.deps.store.updateTask(runId, index, { status, result, error })
    if (task.status === 'waiting_permission' || task.status === 'waiting_question') {
      this.deps.interactionChanged(runId, this.deps.store.task(runId, index), [])
    }
    this.settleTape(runId, index)
    this.deps.changed(runId)
  }

  private async startChild(
    live: LiveRun,
    runId: string,
    task: TaskRow,
    previous: { title: string; result: string } | null
  ): Promise<void> {
    const run = this.deps.store.run(runId)!
    const parent = this.deps.sessions.require(run.parent_session_id)
    const slot = this.deps.slotsOf(parent.id).find((s) => s.id === task.slot_id)
    const slotName = slot?.displayName ?? task.slot_id
    const child = this.deps.sessions.createSubagent(parent.id, {
      meta: { slotId: task.slot_id, displayName: slotName, runId, taskId: task.task_id },
      title: `${slotName} · ${task.title}`.slice(0, 200)
    })
    // An agent slot's child has the agent as its model: the chat loop runs its turn through the agent.
    if (slot?.targetType === 'acp' && slot.agentId)
      this.deps.sessions.updateSettings(child.id, { providerId: ACP_PROVIDER_ID, modelId: slot.agentId })
    this.deps.store.updateTask(runId, task.task_index, { child_session_id: child.id, status: 'running' })
    this.deps.changed(runId)
    const text = buildHandoff({
      mode: run.mode,
      taskCount: this.deps.store.tasks(runId).length,
      position: task.task_index + 1,
      task,
      slotName,
      workspaceDir: child.workspaceDir,
      previous
    })
    const accepted = await live.turns.sendMessage({ sessionId: child.id, text })
    this.deps.store.updateTask(runId, task.task_index, { assistant_message_id: accepted.assistantMessageId })
  }

  /** Resolves once the child has settled (or, on app shutdown, as soon as the run detaches). */
  private follow(live: LiveRun, runId: string, index: number): Promise<void> {
    const childId = this.deps.store.task(runId, index).child_session_id!
    const chat = live.turns
    return new Promise<void>((resolve) => {
      let done = false
      let lastPreview = 0
      let handoverPolls = 0
      const finish = (settle: boolean) => {
        if (done) return
        done = true
        this.listeners.delete(childId)
        live.controller.signal.removeEventListener('abort', onAbort)
        if (settle) this.conclude(live, runId, index)
        resolve()
      }
      const check = () => {
        if (done) return
        const session = this.deps.sessions.get(childId)
        if (!session) return finish(true)
        if (chat.isRunning(childId)) {
          handoverPolls = 0
          return this.markRunning(runId, index)
        }
        if (session.status === 'awaiting_interaction' && !live.controller.signal.aborted) {
          if (this.markWaiting(runId, index, childId)) return
          // Answered; the resumed run is about to start.
          if (handoverPolls++ < HANDOVER_POLLS) return void setTimeout(check, 50)
        }
        // `generating` without a run is the moment a run hands over (or a status a crash left behind).
        if (session.status === 'generating' && handoverPolls++ < HANDOVER_POLLS)
          return void setTimeout(check, 50)
        finish(true)
      }
      const onAbort = () => {
        if (live.reason === 'detached') return finish(false)
        chat.stop(childId).then(check, (error: unknown) => {
          this.deps.log(`subagent child ${childId} did not stop: ${String(error)}`)
          finish(true)
        })
      }
      this.listeners.set(childId, (kind) => {
        if (kind === 'changed') return check()
        if (Date.now() - lastPreview < PREVIEW_EVERY_MS) return
        lastPreview = Date.now()
        this.refreshPreview(live, runId, index)
      })
      live.controller.signal.addEventListener('abort', onAbort, { once: true })
      if (live.controller.signal.aborted) onAbort()
      else check()
    })
  }

  private markRunning(runId: string, index: number): void {
    const task = this.deps.store.task(runId, index)
    if (task.status === 'running') return
    this.deps.store.updateTask(runId, index, { status: 'running' })
    this.deps.interactionChanged(runId, this.deps.store.task(runId, index), [])
    this.deps.changed(runId)
  }

  /** False when nothing is open any more. */
  private markWaiting(runId: string, index: number, childId: string): boolean {
    const pending = this.deps.sessions.interactions.list({ sessionId: childId, status: 'pending' })
    if (pending.length === 0) return false
    const status = pending.some((i) => i.kind === 'permission') ? 'waiting_permission' : 'waiting_question'
    this.deps.store.updateTask(runId, index, { status })
    this.deps.interactionChanged(runId, this.deps.store.task(runId, index), pending)
    this.deps.changed(runId)
    return true
  }

  private refreshPreview(live: LiveRun, runId: string, index: number): void {
    const task = this.deps.store.task(runId, index)
    if (!task.assistant_message_id || isTerminal(task.status)) return
    try {
      const preview = previewOf(live.turns.getMessage(task.assistant_message_id).blocks)
      if (preview === task.preview) return
      this.deps.store.updateTask(runId, index, { preview })
      this.deps.changed(runId)
    } catch (error) {
      this.deps.log(`subagent preview failed: ${String(error)}`)
    }
  }

  /** The child settled: its last assistant message says how the task ended. */
  private conclude(live: LiveRun, runId: string, index: number): void {
    const task = this.deps.store.task(runId, index)
    const message = task.assistant_message_id
      ? this.deps.sessions.messages.get(task.assistant_message_id)
      : undefined
    if (message) this.deps.store.updateTask(runId, index, { preview: previewOf(message.blocks) })
    const stopped = live.controller.signal.aborted
      ? live.reason === 'timeout'
        ? 'timeout'
        : 'cancelled'
      : null
    if (!message)
      return this.end(runId, index, stopped ?? 'error', null, 'The child session or its answer is gone.')
    const answer = finalAnswer(message.blocks)
    const errorText =
      message.blocks
        .filter((b) => b.kind === 'error')
        .map((b) => b.text)
        .join('\n') || null
    if (message.status === 'sent' && answer) return this.end(runId, index, 'completed', answer, null)
    if (stopped || message.status === 'cancelled') {
      return this.end(
        runId,
        index,
        stopped ?? 'cancelled',
        null,
        stopped === 'timeout' ? 'Timed out.' : 'Cancelled by the parent session.'
      )
    }
    this.end(
      runId,
      index,
      'error',
      null,
      errorText ?? `The subagent ended without an answer (${message.status}).`
    )
  }
}
