import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { AppError, isAppError } from '@shared/errors'
import { subagentsInteractionChanged, subagentsRunUpdated } from '@shared/contracts/events/subagents.events'
import {
  SubagentSlotConfig,
  type SubagentSlot,
  type SubagentInteraction,
  type SubagentRunStatus,
  type SubagentRunView,
  type SubagentTaskStatus
} from '@shared/types/subagents'
import type { PendingInteraction } from '@shared/types/session'
import type { EventSink } from '../../bridge/events'
import type { SqlitePresenter } from '../sqlitePresenter'
import { SubagentStore, type NewTask, type TaskRow } from './store'
import { withAgentSlots } from './agentSlots'
import {
  TaskRunner,
  isTerminal,
  type LiveRun,
  type StopReason,
  type SubagentChatPort,
  type TaskRunnerDeps
} from './taskRunner'

export type { SubagentChatPort } from './taskRunner'

export interface SubagentPresenterDeps {
  sqlite: Pick<SqlitePresenter, 'db' | 'transaction'>
  sessions: TaskRunnerDeps['sessions']
  tape: TaskRunnerDeps['tape']
  events: EventSink
  now?: () => number
  newId?: () => string
  log?: (message: string) => void
  /** Enabled ACP agents as slots (`agentSlots.ts`): every chat that may start subagents can hand them tasks. */
  agentSlots?: () => SubagentSlot[]
}

export interface ChatPortWithAnswers extends SubagentChatPort {
  respondToolInteraction(input: {
    sessionId: string
    messageId: string
    interactionId: string
    response: unknown
  }): Promise<{ accepted: true; remaining: number; resumed: boolean }>
}

export const StartRunInput = z.object({
  mode: z.enum(['parallel', 'chain']),
  tasks: z
    .array(
      z.object({
        id: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,40}$/, 'A task id is 1-40 letters, digits, "_" or "-"')
          .optional(),
        slotId: z.string().min(1).max(40),
        title: z.string().trim().min(1).max(200),
        prompt: z.string().trim().min(1).max(50_000),
        expectedOutput: z.string().trim().max(5_000).optional()
      })
    )
    .min(1)
    .max(5),
  background: z.boolean().default(false),
  /** Foreground only: unfinished tasks are stopped (and discarded) after this long. */
  timeoutMs: z.number().int().min(1).max(3_600_000).default(600_000)
})
export type StartRunInput = z.input<typeof StartRunInput>

interface Live extends LiveRun {
  parentSessionId: string
  done: Promise<void>
  progress: Set<(run: SubagentRunView) => void>
}

const WAITING_ORDER: SubagentTaskStatus[] = ['waiting_permission', 'waiting_question', 'running', 'queued']

/**
 * Subagent runs (docs/subagents.md): each task is a child session whose tape forks the
 * parent's; `parallel` runs them together, `chain` one after another with each result passed
 * on. Runs and tasks live in SQLite and are picked up again after a restart.
 */
export class SubagentPresenter {
  readonly store: SubagentStore
  private readonly runner: TaskRunner
  private readonly live = new Map<string, Live>()
  private readonly newId: () => string
  private readonly log: (message: string) => void
  private disposed = false

  constructor(private readonly deps: SubagentPresenterDeps) {
    this.store = new SubagentStore(deps.sqlite.db, deps.now ?? Date.now)
    this.newId = deps.newId ?? (() => randomUUID().replaceAll('-', '').slice(0, 12))
    this.log = deps.log ?? (() => {})
    this.runner = new TaskRunner({
      store: this.store,
      sessions: deps.sessions,
      tape: deps.tape,
      slotsOf: (sessionId) => this.getSlots(sessionId).slots,
      changed: (runId) => this.changed(runId),
      interactionChanged: (runId, task, interactions) => this.emitInteraction(runId, task, interactions),
      log: this.log
    })
  }

  getSlots(sessionId: string): SubagentSlotConfig {
    return withAgentSlots(this.store.slots(sessionId), this.deps.agentSlots?.() ?? [])
  }

  setSlots(sessionId: string, config: SubagentSlotConfig): SubagentSlotConfig {
    const parsed = SubagentSlotConfig.safeParse(config)
    if (!parsed.success) throw new AppError('invalid_input', z.prettifyError(parsed.error))
    this.deps.sessions.require(sessionId)
    this.store.setSlots(sessionId, parsed.data)
    return this.store.slots(sessionId)
  }

  /** Regular sessions with subagents on and a slot; children never (no recursion). */
  isAvailable(sessionId: string): boolean {
    const session = this.deps.sessions.get(sessionId)
    if (!session || session.kind !== 'regular') return false
    const config = this.getSlots(sessionId)
    return config.enabled && config.slots.length > 0
  }

  /**
   * Starts a run whose children's turns run on `options.turns` (the chat loop running the
   * calling tool). Background runs return at once; foreground ones when every task has ended,
   * the timeout passed, or `signal` fired (the parent was stopped).
   */
  async start(
    parentSessionId: string,
    input: StartRunInput,
    options: { turns: SubagentChatPort; signal?: AbortSignal; onProgress?: (run: SubagentRunView) => void }
  ): Promise<SubagentRunView> {
    const parsed = StartRunInput.safeParse(input)
    if (!parsed.success) throw new AppError('invalid_input', z.prettifyError(parsed.error))
    const request = parsed.data
    if (!this.isAvailable(parentSessionId)) {
      throw new AppError(
        'subagents_unavailable',
        'Subagents are only available in regular sessions with subagents enabled'
      )
    }
    const slots = new Set(this.getSlots(parentSessionId).slots.map((s) => s.id))
    const tasks: NewTask[] = request.tasks.map((t, i) => {
      if (!slots.has(t.slotId))
        throw new AppError(
          'invalid_input',
          `Subagent slot not found or not enabled: ${t.slotId} (slots: ${[...slots].join(', ')})`
        )
      return {
        taskId: t.id ?? `task-${i + 1}`,
        slotId: t.slotId,
        title: t.title,
        prompt: t.prompt,
        expectedOutput: t.expectedOutput ?? null
      }
    })
    if (new Set(tasks.map((t) => t.taskId)).size !== tasks.length)
      throw new AppError('invalid_input', 'Task ids must be unique')
    const runId = this.newId()
    this.deps.sqlite.transaction(() =>
      this.store.insertRun(
        { id: runId, parentSessionId, mode: request.mode, background: request.background },
        tasks
      )
    )
    const live = this.launch(runId, parentSessionId, options.turns)
    if (request.background) return this.view(runId)
    if (options.onProgress) live.progress.add(options.onProgress)
    const timer = setTimeout(() => this.killLater(runId, 'timeout'), request.timeoutMs)
    const onAbort = () => this.killLater(runId, isShutdown(options.signal?.reason) ? 'detached' : 'cancelled')
    options.signal?.addEventListener('abort', onAbort, { once: true })
    if (options.signal?.aborted) onAbort()
    try {
      await live.done
    } finally {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      if (options.onProgress) live.progress.delete(options.onProgress)
    }
    return this.view(runId)
  }

  listRuns(parentSessionId: string): SubagentRunView[] {
    return this.store.runsOf(parentSessionId).map((r) => this.view(r.id))
  }

  /** The run as stored; a finished task whose fork was not settled yet is retried first. */
  getRun(runId: string): SubagentRunView {
    const run = this.store.run(runId)
    if (!run) throw new AppError('subagent_run_not_found', `No subagent run ${runId}`)
    for (const task of this.store.tasks(runId)) this.runner.settleTape(runId, task.task_index)
    return this.view(runId)
  }

  /** Waits up to `timeoutMs` for the run to end; `finished` says whether it did. */
  async wait(
    runId: string,
    timeoutMs: number,
    signal?: AbortSignal
  ): Promise<{ run: SubagentRunView; finished: boolean }> {
    this.getRun(runId)
    const live = this.live.get(runId)
    if (live) {
      let timer: NodeJS.Timeout | undefined
      let onAbort: (() => void) | undefined
      await Promise.race([
        live.done,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, timeoutMs)
          onAbort = () => resolve()
          signal?.addEventListener('abort', onAbort, { once: true })
        })
      ])
      clearTimeout(timer)
      if (onAbort) signal?.removeEventListener('abort', onAbort)
    }
    const run = this.getRun(runId)
    return { run, finished: isTerminal(run.status) }
  }

  /** Stops every unfinished task (children stopped, forks discarded). */
  async kill(runId: string, reason: StopReason = 'cancelled'): Promise<SubagentRunView> {
    this.getRun(runId)
    const live = this.live.get(runId)
    if (live && !live.controller.signal.aborted) {
      live.reason = reason
      live.controller.abort()
    }
    if (live && reason !== 'detached') await live.done
    return this.view(runId)
  }

  /** Children of this session waiting for the user right now, labelled. */
  pendingInteractions(parentSessionId: string): SubagentInteraction[] {
    const out: SubagentInteraction[] = []
    for (const run of this.store.runsOf(parentSessionId)) {
      for (const task of this.store.tasks(run.id)) {
        if (
          !task.child_session_id ||
          (task.status !== 'waiting_permission' && task.status !== 'waiting_question')
        )
          continue
        const interactions = this.deps.sessions.interactions.list({
          sessionId: task.child_session_id,
          status: 'pending'
        })
        if (interactions.length) out.push(this.interactionPayload(run.id, task, interactions))
      }
    }
    return out
  }

  /** An answer given in the parent's window; it resumes the child on `chat`. */
  async respond(
    input: {
      parentSessionId: string
      childSessionId: string
      messageId: string
      interactionId: string
      response: unknown
    },
    chat: ChatPortWithAnswers
  ) {
    const child = this.deps.sessions.require(input.childSessionId)
    if (child.kind !== 'subagent' || child.parentSessionId !== input.parentSessionId) {
      throw new AppError(
        'invalid_input',
        `Session ${input.childSessionId} is not a subagent of ${input.parentSessionId}`
      )
    }
    return chat.respondToolInteraction({
      sessionId: child.id,
      messageId: input.messageId,
      interactionId: input.interactionId,
      response: input.response
    })
  }

  /** After a restart: unfinished runs continue on `turns` (a child interrupted mid-answer ends as an error). */
  recoverOnStart(turns: SubagentChatPort): void {
    for (const run of this.store.unfinishedRuns()) {
      if (!this.live.has(run.id)) this.launch(run.id, run.parent_session_id, turns)
    }
  }

  /** App shutdown: runs detach and stay in SQLite as they are; children are not stopped. */
  dispose(): void {
    this.disposed = true
    for (const live of this.live.values()) {
      live.reason = 'detached'
      live.controller.abort()
    }
  }

  // Lifecycle of other presenters. createPresenters() wires these to their hooks (docs/ARCHITECTURE.md).

  /** A session's status or open interactions changed: the task following it (a child) looks again. */
  sessionChanged(sessionId: string): void {
    this.runner.listeners.get(sessionId)?.('changed')
  }

  /** A session streamed: the task following it refreshes its preview (throttled). */
  sessionStreamed(sessionId: string): void {
    this.runner.listeners.get(sessionId)?.('streamed')
  }

  /** The user stopped a session: the runs it started stop too (children stopped, forks discarded). */
  sessionStopped(sessionId: string): void {
    for (const live of this.live.values())
      if (live.parentSessionId === sessionId) this.killLater(live.runId, 'cancelled')
  }

  /** Sessions were deleted: runs they started detach (their rows and children went with them). */
  sessionsPurged(sessionIds: readonly string[]): void {
    const ids = new Set(sessionIds)
    for (const live of this.live.values()) {
      if (!ids.has(live.parentSessionId)) continue
      live.reason = 'detached'
      live.controller.abort()
    }
  }

  /** Ids of the runs this process is driving right now. */
  liveRunIds(): string[] {
    return [...this.live.keys()]
  }

  /** Kill from a timer or a hook: nobody awaits it, so a failure is only logged. */
  private killLater(runId: string, reason: StopReason): void {
    this.kill(runId, reason).catch((error: unknown) =>
      this.log(`subagent run ${runId} not stopped: ${String(error)}`)
    )
  }

  private launch(runId: string, parentSessionId: string, turns: SubagentChatPort): Live {
    const live: Live = {
      runId,
      parentSessionId,
      turns,
      controller: new AbortController(),
      reason: null,
      done: Promise.resolve(),
      progress: new Set()
    }
    this.live.set(runId, live)
    live.done = this.execute(live)
      .catch((error: unknown) => {
        this.log(`subagent run ${runId} failed: ${String(error)}`)
        if (this.store.run(runId)) this.store.updateRun(runId, { status: 'error', error: String(error) })
      })
      .finally(() => {
        this.live.delete(runId)
        if (!this.disposed && this.store.run(runId)) this.changed(runId)
      })
    return live
  }

  private async execute(live: Live): Promise<void> {
    const { runId } = live
    const run = this.store.run(runId)!
    const tasks = this.store.tasks(runId)
    if (run.mode === 'parallel') {
      await Promise.all(tasks.map((t) => this.runner.run(live, runId, t.task_index, null)))
    } else {
      let previous: { title: string; result: string } | null = null
      for (const t of tasks) {
        const ended: TaskRow = await this.runner.run(live, runId, t.task_index, previous)
        if (live.reason === 'detached') return
        if (ended.status !== 'completed' || ended.result === null) {
          for (const rest of tasks.slice(t.task_index + 1)) {
            this.runner.end(
              runId,
              rest.task_index,
              'cancelled',
              null,
              `Skipped: task ${t.task_index + 1} did not complete.`
            )
          }
          break
        }
        previous = { title: ended.title, result: ended.result }
      }
    }
    if (live.reason === 'detached') return
    const final = aggregate(
      this.store.tasks(runId).map((t) => t.status),
      live.reason
    )
    this.store.updateRun(runId, {
      status: final,
      error: final === 'completed' ? null : describeFailure(this.store.tasks(runId))
    })
  }

  /** A task changed: the run's status follows, the UI and a waiting foreground call hear it. */
  private changed(runId: string): void {
    if (this.disposed) return
    const run = this.store.run(runId)
    if (!run) return
    const live = this.live.get(runId)
    const status = aggregate(
      this.store.tasks(runId).map((t) => t.status),
      null
    )
    if (!isTerminal(status) && status !== run.status) this.store.updateRun(runId, { status })
    const view = this.view(runId)
    this.deps.events.emit(subagentsRunUpdated, { parentSessionId: run.parent_session_id, run: view })
    for (const listener of live?.progress ?? []) {
      try {
        listener(view)
      } catch (error) {
        this.log(`subagent progress listener failed: ${String(error)}`)
      }
    }
  }

  private emitInteraction(runId: string, task: TaskRow, interactions: PendingInteraction[]): void {
    this.deps.events.emit(subagentsInteractionChanged, this.interactionPayload(runId, task, interactions))
  }

  private interactionPayload(
    runId: string,
    task: TaskRow,
    interactions: PendingInteraction[]
  ): SubagentInteraction {
    const run = this.store.run(runId)!
    const slot = this.getSlots(run.parent_session_id).slots.find((s) => s.id === task.slot_id)
    return {
      parentSessionId: run.parent_session_id,
      runId,
      taskId: task.task_id,
      childSessionId: task.child_session_id!,
      label: `${slot?.displayName ?? task.slot_id} · ${task.title}`,
      interactions
    }
  }

  private view(runId: string): SubagentRunView {
    const view = this.store.view(runId)
    if (!view) throw new AppError('subagent_run_not_found', `No subagent run ${runId}`)
    return view
  }
}

/** The run's status from its tasks: what still waits wins; once all ended, how they ended. */
export function aggregate(
  statuses: readonly SubagentTaskStatus[],
  stopped: StopReason | null
): SubagentRunStatus {
  for (const status of WAITING_ORDER) if (statuses.includes(status)) return status
  if (stopped === 'timeout' || stopped === 'cancelled')
    return statuses.every((s) => s === 'completed') ? 'completed' : stopped
  if (statuses.every((s) => s === 'completed')) return 'completed'
  if (statuses.includes('error')) return 'error'
  if (statuses.includes('timeout')) return 'timeout'
  return 'cancelled'
}

function describeFailure(tasks: readonly TaskRow[]): string {
  const failed = tasks.filter((t) => t.status !== 'completed')
  return failed.map((t) => `${t.task_id}: ${t.status}${t.error ? ` (${t.error})` : ''}`).join('; ')
}

function isShutdown(reason: unknown): boolean {
  return isAppError(reason, 'shutdown')
}
