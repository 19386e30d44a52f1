import type Database from 'better-sqlite3'
import {
  SubagentSlot,
  SubagentSlotConfig,
  type SubagentRunStatus,
  type SubagentRunView,
  type SubagentTaskStatus,
  type SubagentTaskView
} from '@shared/types/subagents'

export interface RunRow {
  id: string
  parent_session_id: string
  mode: 'parallel' | 'chain'
  background: number
  status: SubagentRunStatus
  error: string | null
  created_at: number
  updated_at: number
}

export interface TaskRow {
  run_id: string
  task_index: number
  task_id: string
  slot_id: string
  title: string
  prompt: string
  expected_output: string | null
  status: SubagentTaskStatus
  child_session_id: string | null
  assistant_message_id: string | null
  preview: string
  result: string | null
  error: string | null
  tape_state: 'open' | 'merged' | 'discarded'
  updated_at: number
}

export interface NewTask {
  taskId: string
  slotId: string
  title: string
  prompt: string
  expectedOutput: string | null
}

export type TaskPatch = Partial<
  Pick<
    TaskRow,
    'status' | 'child_session_id' | 'assistant_message_id' | 'preview' | 'result' | 'error' | 'tape_state'
  >
>

export const DEFAULT_SLOTS: SubagentSlotConfig = {
  enabled: true,
  slots: [
    {
      id: 'self',
      targetType: 'self',
      displayName: 'Self',
      description:
        'A fresh copy of this agent with the same model, workspace and (at most) the same permissions'
    }
  ]
}

/** Run, task and slot rows. Callers wrap multi-row changes in a transaction. */
export class SubagentStore {
  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number
  ) {}

  insertRun(
    run: { id: string; parentSessionId: string; mode: 'parallel' | 'chain'; background: boolean },
    tasks: readonly NewTask[]
  ): void {
    const at = this.now()
    this.db
      .prepare(
        `INSERT INTO subagent_runs (id, parent_session_id, mode, background, status, created_at, updated_at)
        VALUES (?, ?, ?, ?, 'queued', ?, ?)`
      )
      .run(run.id, run.parentSessionId, run.mode, run.background ? 1 : 0, at, at)
    const insert = this.db.prepare(`INSERT INTO subagent_tasks
      (run_id, task_index, task_id, slot_id, title, prompt, expected_output, status, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', ?)`)
    tasks.forEach((t, i) =>
      insert.run(run.id, i, t.taskId, t.slotId, t.title, t.prompt, t.expectedOutput, at)
    )
  }

  run(runId: string): RunRow | undefined {
    return this.db.prepare('SELECT * FROM subagent_runs WHERE id = ?').get(runId) as RunRow | undefined
  }

  tasks(runId: string): TaskRow[] {
    return this.db
      .prepare('SELECT * FROM subagent_tasks WHERE run_id = ? ORDER BY task_index')
      .all(runId) as TaskRow[]
  }

  task(runId: string, index: number): TaskRow {
    return this.db
      .prepare('SELECT * FROM subagent_tasks WHERE run_id = ? AND task_index = ?')
      .get(runId, index) as TaskRow
  }

  runsOf(parentSessionId: string, limit = 50): RunRow[] {
    return this.db
      .prepare('SELECT * FROM subagent_runs WHERE parent_session_id = ? ORDER BY created_at DESC, id LIMIT ?')
      .all(parentSessionId, limit) as RunRow[]
  }

  unfinishedRuns(): RunRow[] {
    return this.db
      .prepare(
        "SELECT * FROM subagent_runs WHERE status NOT IN ('completed', 'error', 'cancelled', 'timeout') ORDER BY created_at"
      )
      .all() as RunRow[]
  }

  /** The run a child session belongs to, if any. */
  taskOfChild(childSessionId: string): TaskRow | undefined {
    return this.db.prepare('SELECT * FROM subagent_tasks WHERE child_session_id = ?').get(childSessionId) as
      TaskRow | undefined
  }

  updateTask(runId: string, index: number, patch: TaskPatch): void {
    const names = Object.keys(patch)
    if (names.length === 0) return
    this.db
      .prepare(
        `UPDATE subagent_tasks SET ${names.map((n) => `${n} = @${n}`).join(', ')}, updated_at = @at
        WHERE run_id = @runId AND task_index = @index`
      )
      .run({ ...patch, at: this.now(), runId, index })
  }

  updateRun(runId: string, patch: { status: SubagentRunStatus; error?: string | null }): void {
    this.db
      .prepare('UPDATE subagent_runs SET status = ?, error = ?, updated_at = ? WHERE id = ?')
      .run(patch.status, patch.error ?? null, this.now(), runId)
  }

  view(runId: string): SubagentRunView | undefined {
    const run = this.run(runId)
    return run ? toView(run, this.tasks(runId)) : undefined
  }

  slots(sessionId: string): SubagentSlotConfig {
    const row = this.db
      .prepare('SELECT enabled, slots_json FROM session_subagent_slots WHERE session_id = ?')
      .get(sessionId) as { enabled: number; slots_json: string } | undefined
    if (!row) return DEFAULT_SLOTS
    let slots: SubagentSlot[] = []
    try {
      const parsed = SubagentSlot.array().safeParse(JSON.parse(row.slots_json))
      if (parsed.success) slots = parsed.data
    } catch {
      // an unreadable row means no slots, never a crash
    }
    return { enabled: row.enabled === 1, slots }
  }

  setSlots(sessionId: string, config: SubagentSlotConfig): void {
    this.db
      .prepare(
        `INSERT INTO session_subagent_slots (session_id, enabled, slots_json, updated_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (session_id) DO UPDATE SET enabled = excluded.enabled, slots_json = excluded.slots_json, updated_at = excluded.updated_at`
      )
      .run(sessionId, config.enabled ? 1 : 0, JSON.stringify(config.slots), this.now())
  }
}

export function toView(run: RunRow, tasks: readonly TaskRow[]): SubagentRunView {
  return {
    runId: run.id,
    parentSessionId: run.parent_session_id,
    mode: run.mode,
    background: run.background === 1,
    status: run.status,
    error: run.error,
    createdAt: run.created_at,
    updatedAt: run.updated_at,
    tasks: tasks.map(toTaskView)
  }
}

function toTaskView(t: TaskRow): SubagentTaskView {
  return {
    index: t.task_index,
    taskId: t.task_id,
    slotId: t.slot_id,
    title: t.title,
    status: t.status,
    childSessionId: t.child_session_id,
    preview: t.preview,
    result: t.result,
    error: t.error,
    tape: t.tape_state,
    updatedAt: t.updated_at
  }
}
