import type { MessageBlock } from '@shared/types/session'
import type { TaskRow } from './store'

const DEFAULT_CONTRACT =
  'A concise markdown result: the answer, key findings, and any important file paths or commands.'
const PREVIEW_LINES = 3
const PREVIEW_CHARS = 600

export interface HandoffInput {
  mode: 'parallel' | 'chain'
  taskCount: number
  position: number
  task: Pick<TaskRow, 'title' | 'prompt' | 'expected_output'>
  slotName: string
  workspaceDir: string | null
  /** Chain mode: what the task before this one answered. */
  previous: { title: string; result: string } | null
}

/** The child's first message: everything it needs, since it does not see the parent's transcript. */
export function buildHandoff(input: HandoffInput): string {
  const lines = [
    '# Structured Handoff',
    '',
    `You are a subagent (${input.slotName}) started by a parent agent with subagent_orchestrator`,
    `(${input.mode} mode, task ${input.position} of ${input.taskCount}).`,
    '',
    `## Your task: ${input.task.title}`,
    '',
    input.task.prompt.trim(),
    ''
  ]
  if (input.previous) {
    lines.push(
      `## Result of the previous task: ${input.previous.title}`,
      '',
      input.previous.result.trim(),
      ''
    )
  }
  lines.push(
    '## Output contract',
    '',
    input.task.expected_output?.trim() || DEFAULT_CONTRACT,
    '',
    '## Rules',
    '',
    `- Working directory: ${input.workspaceDir ?? '(none)'}`,
    '- You do not see the parent conversation; this handoff is all your context.',
    '- Use your tools as needed; ask for permission or clarification through the normal tools.',
    '- Your final message is your result: make it complete and self-contained.'
  )
  return lines.join('\n')
}

/**
 * The child's final answer: the text written after its last tool call (earlier text was
 * narration between tool rounds). Reasoning and tool output are never part of it.
 */
export function finalAnswer(blocks: readonly MessageBlock[]): string {
  let lastTool = -1
  blocks.forEach((b, i) => {
    if (b.kind === 'tool_call' || b.kind === 'action') lastTool = i
  })
  const after = blocks.slice(lastTool + 1).filter((b) => b.kind === 'content')
  const chosen = after.length ? after : blocks.filter((b) => b.kind === 'content')
  return chosen
    .map((b) => b.text)
    .join('\n\n')
    .trim()
}

/** The last few lines the child wrote, for the live progress view. */
export function previewOf(blocks: readonly MessageBlock[]): string {
  const text = blocks
    .filter((b) => b.kind === 'content' || b.kind === 'reasoning_content')
    .map((b) => b.text)
    .join('\n')
  const lines = text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim())
  return lines.slice(-PREVIEW_LINES).join('\n').slice(-PREVIEW_CHARS)
}
