import type { SubagentRunView, SubagentTaskStatus } from '@shared/types/subagents'

/** How subagent runs read to the parent model and on the call's block. */
const STATUS_LABEL: Record<SubagentTaskStatus, string> = {
  queued: 'queued',
  running: 'running',
  waiting_permission: 'waiting for permission',
  waiting_question: 'waiting for an answer',
  completed: 'completed',
  error: 'failed',
  cancelled: 'cancelled',
  timeout: 'timed out'
}

/** Live progress for the parent's tool block: per task its status and last lines. */
export function progressMarkdown(run: SubagentRunView): string {
  const lines = [
    `${run.mode} · ${run.tasks.length} subagent${run.tasks.length === 1 ? '' : 's'} · ${STATUS_LABEL[run.status]}`
  ]
  for (const task of run.tasks) {
    lines.push(`- ${task.index + 1}. ${task.title} (${task.slotId}): ${STATUS_LABEL[task.status]}`)
    for (const line of (task.status === 'completed' ? '' : task.preview).split('\n').filter(Boolean))
      lines.push(`  > ${line}`)
  }
  return lines.join('\n')
}

/** What the parent model reads when a run is over (or for `log`). */
export function finalMarkdown(run: SubagentRunView): string {
  const parts = [`Subagent run ${run.runId} (${run.mode}): ${STATUS_LABEL[run.status]}`]
  for (const task of run.tasks) {
    parts.push(
      [
        `## ${task.index + 1}. ${task.title}`,
        `Slot: ${task.slotId} · Child session: ${task.childSessionId ?? '-'} · Status: ${STATUS_LABEL[task.status]}`,
        '',
        task.result ?? (task.error ? `_Error: ${task.error}_` : '_No result produced._')
      ].join('\n')
    )
  }
  return parts.join('\n\n')
}
