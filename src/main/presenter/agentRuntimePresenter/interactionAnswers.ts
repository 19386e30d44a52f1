import { z } from 'zod'
import { AppError } from '@shared/errors'
import { InteractionResponse } from '@shared/types/chat'
import type {
  BlockOf,
  MessageBlock,
  PermissionAnswer,
  QuestionAnswer,
  QuestionSpec
} from '@shared/types/blocks'
import type { InteractionStatus, MessageRecord, PendingInteraction } from '@shared/types/session'
import type { PermissionDecision, PermissionRequest, RuleDraft } from '@shared/types/permission'
import { DENIED_RESULT } from './dispatch'

export const SKIPPED_RESULT = 'The user skipped this question without answering.'

export interface AnswerEffect {
  status: InteractionStatus
  response: Record<string, unknown>
  /** Blocks changed by the answer (the action block and, unless granted, its tool call). */
  blocks: MessageBlock[]
  /** A permission answer: what the permission layer records (grant, rule). */
  permission?: { request: PermissionRequest; decision: PermissionDecision; rule?: RuleDraft }
}

const DECISIONS: Record<PermissionAnswer, PermissionDecision> = {
  allow_once: 'once',
  allow_session: 'session',
  allow_always: 'always',
  allow_server_session: 'session',
  allow_server_always: 'always',
  deny: 'deny'
}

/**
 * "Allow all tools of this server": the rule `mcp: <server>/*`, held for the session or stored.
 * Other answers keep the rule the user may have edited (`always` only).
 */
function answerRule(
  request: PermissionRequest,
  answer: PermissionAnswer,
  rule?: RuleDraft
): RuleDraft | undefined {
  if (answer !== 'allow_server_session' && answer !== 'allow_server_always')
    return answer === 'allow_always' ? rule : undefined
  if (request.type !== 'mcp' || !request.server)
    throw new AppError('invalid_input', 'Only an MCP tool call can allow every tool of its server')
  return { kind: 'mcp', pattern: `${request.server}/*`, effect: 'allow' }
}

/**
 * What an answer does to a paused message. Pure: validates the answer against the stored
 * request and returns the changed blocks; the caller writes them with the interaction.
 */
export function applyAnswer(
  interaction: PendingInteraction,
  message: MessageRecord,
  raw: unknown
): AnswerEffect {
  const parsed = InteractionResponse.safeParse(raw)
  if (!parsed.success) throw new AppError('invalid_input', z.prettifyError(parsed.error))
  const response = parsed.data
  if (response.kind !== interaction.kind) {
    throw new AppError(
      'invalid_input',
      `Interaction ${interaction.id} is a ${interaction.kind}, not a ${response.kind}`
    )
  }
  const action = message.blocks.find(
    (b): b is BlockOf<'action'> => b.kind === 'action' && b.id === interaction.blockId
  )
  const call = message.blocks.find(
    (b): b is BlockOf<'tool_call'> => b.kind === 'tool_call' && b.toolCall.id === interaction.toolCallId
  )
  if (!action || !call || action.data.actionType !== response.kind) {
    throw new AppError(
      'interaction_broken',
      `The blocks of interaction ${interaction.id} are missing; stop the message and try again`
    )
  }
  const data = action.data
  if (data.actionType === 'permission' && response.kind === 'permission') {
    const granted = response.decision !== 'deny'
    const blocks: MessageBlock[] = [
      { ...action, status: granted ? 'granted' : 'denied', data: { ...data, decision: response.decision } }
    ]
    if (!granted)
      blocks.push({
        ...call,
        status: 'error',
        toolCall: { ...call.toolCall, response: DENIED_RESULT, isError: true }
      })
    return {
      status: granted ? 'granted' : 'denied',
      response: { ...response },
      blocks,
      permission: {
        request: data.request,
        decision: DECISIONS[response.decision],
        rule: answerRule(data.request, response.decision, response.rule)
      }
    }
  }
  if (data.actionType !== 'question' || response.kind !== 'question')
    throw new AppError('interaction_broken', 'The action block is not a question')
  const answer = validateQuestionAnswer(data.question, response)
  const text = answer.skipped ? SKIPPED_RESULT : formatAnswer(answer)
  return {
    status: answer.skipped ? 'cancelled' : 'answered',
    response: { ...answer },
    blocks: [
      { ...action, status: answer.skipped ? 'cancelled' : 'success', data: { ...data, answer } },
      { ...call, status: 'success', toolCall: { ...call.toolCall, response: text, isError: false } }
    ]
  }
}

/** Stop on a paused message: every open interaction is denied (questions count as skipped). */
export function denyEffect(interaction: PendingInteraction, message: MessageRecord): MessageBlock[] {
  const kind = interaction.kind
  const response = kind === 'permission' ? { kind, decision: 'deny' } : { kind, selected: [], skipped: true }
  try {
    return applyAnswer(interaction, message, response).blocks
  } catch {
    return [] // broken blocks must not keep a stop from finishing
  }
}

function validateQuestionAnswer(
  question: QuestionSpec,
  response: { selected: string[]; text?: string; skipped: boolean }
): QuestionAnswer {
  if (response.skipped) return { selected: [], skipped: true }
  const labels = new Set(question.options.map((o) => o.label))
  const selected = [...new Set(response.selected)]
  const unknown = selected.filter((s) => !labels.has(s))
  if (unknown.length)
    throw new AppError('invalid_input', `Not an option of this question: ${unknown.join(', ')}`)
  if (!question.multiple && selected.length > 1)
    throw new AppError('invalid_input', 'This question takes one option')
  const text = response.text?.trim() || undefined
  if (text && !question.custom)
    throw new AppError('invalid_input', 'This question does not take a free-text answer')
  if (selected.length === 0 && !text)
    throw new AppError('invalid_input', 'Choose an option or write an answer (or skip)')
  return { selected, text, skipped: false }
}

function formatAnswer(answer: { selected: string[]; text?: string }): string {
  const lines: string[] = []
  if (answer.selected.length) lines.push(`The user chose: ${answer.selected.join(', ')}`)
  if (answer.text) lines.push(`The user wrote: ${answer.text}`)
  return lines.join('\n')
}
