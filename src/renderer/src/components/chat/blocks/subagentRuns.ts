import type { SubagentRunView } from '@shared/types/subagents'

/** What a `subagent_orchestrator` call asked for, as far as its (maybe streaming) arguments say. */
export interface OrchestratorCall {
  runId?: string
  taskTitles: string[]
  createdAt: number
}

/**
 * The run a call belongs to. Calls that name a run (`wait`, `log`…) say which; a `run` call does
 * not know its id, so it is the first run started after the call whose tasks carry the same titles
 * in the same order (a later identical call starts later, so it gets the later run).
 */
export function runForCall(call: OrchestratorCall, runs: readonly SubagentRunView[]): SubagentRunView | null {
  if (call.runId) return runs.find((r) => r.runId === call.runId) ?? null
  if (call.taskTitles.length === 0) return null
  const sameTasks = runs
    .filter(
      (r) =>
        r.tasks.length === call.taskTitles.length && r.tasks.every((t, i) => t.title === call.taskTitles[i])
    )
    .sort((a, b) => a.createdAt - b.createdAt)
  return sameTasks.find((r) => r.createdAt >= call.createdAt) ?? null
}

/** Parses the arguments of an orchestrator call into what `runForCall` needs. */
export function orchestratorCall(args: Record<string, unknown> | null, createdAt: number): OrchestratorCall {
  const runId = typeof args?.runId === 'string' ? args.runId : undefined
  const tasks = Array.isArray(args?.tasks) ? args.tasks : []
  const taskTitles = tasks.map((t) =>
    t && typeof t === 'object' && typeof (t as { title?: unknown }).title === 'string'
      ? (t as { title: string }).title.trim()
      : ''
  )
  return { runId, taskTitles, createdAt }
}
