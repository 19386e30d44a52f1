import {
  ACP_BLOCK_OUTPUT_LIMIT,
  type AcpContentItem,
  type AcpPermissionAsk,
  type AcpPlanEntry,
  type AcpPromptContent,
  type AcpToolCall,
  type AcpToolContent,
  type AcpTurnEvent
} from '@shared/types/acp'
import type { ActionBlockData, BlockOf, BlockStatus, PlanBlockData, ToolCallData } from '@shared/types/blocks'
import type { UserMessageContent } from '@shared/types/session'
import type { MessageFile } from '@shared/types/attachments'
import type { AttachmentReader } from '../attachmentPresenter'
import type { InteractionRequest } from '../sessionPresenter'
import type { BlockAccumulator } from '../agentRuntimePresenter/blockAccumulator'

const STATUS: Record<AcpToolCall['status'], BlockStatus> = {
  pending: 'pending',
  in_progress: 'loading',
  completed: 'success',
  failed: 'error'
}
const PARAM_STRING_LIMIT = 2_000
const RESULT_LIMIT = 20_000

/**
 * Writes an agent's turn into our blocks: text → `content`, thoughts → `reasoning_content`, the
 * plan → the message's `plan` block, tool calls → `tool_call` blocks (kind, locations, diffs and
 * terminals in `data.acp`), and the agent's asks → `action` blocks with their interactions.
 * Calls are found again by the agent's call id, so a resumed run continues the same blocks.
 */
export class AcpBlockWriter {
  constructor(
    private readonly acc: BlockAccumulator,
    private readonly agent: { id: string; name: string },
    private readonly messageId: string
  ) {}

  apply(event: AcpTurnEvent): void {
    switch (event.type) {
      case 'text':
        return this.acc.apply({ type: 'text', content: event.text })
      case 'thought':
        return this.acc.apply({ type: 'reasoning', reasoning_content: event.text })
      case 'content':
        return this.content(event.role, event.content)
      case 'plan':
        return this.plan(event.entries)
      case 'tool_call':
        this.upsertCall(event.call)
        return
      default:
        return // modes, commands, models and config reach the chat through acp.session.changed
    }
  }

  /** The block of the agent's call `call` (made if new), brought up to date. */
  upsertCall(call: AcpToolCall): string {
    const existing = this.callBlock(call.id)
    const toolCall: ToolCallData = {
      id: call.id,
      name: `acp_${call.kind}`,
      params: paramsOf(call),
      serverName: this.agent.name,
      ...(call.status === 'completed' || call.status === 'failed'
        ? { response: resultOf(call), isError: call.status === 'failed' }
        : {})
    }
    const acp = {
      agentId: this.agent.id,
      title: call.title,
      kind: call.kind,
      locations: call.locations,
      content: call.content.map(capOutput)
    }
    if (existing) {
      // A call waiting for the user stays `pending` until the answer, whatever the agent says
      // meanwhile. Waiting means its ask is still open — not merely that the block reads
      // `pending`: Claude Code re-sends `pending` after the answer, and the `completed` that
      // follows must then land (it was dropped, and the turn's end showed the write cancelled).
      const waiting = this.askOpen(existing.data?.interactionId)
      this.acc.update(existing.id, 'tool_call', {
        ...(waiting ? {} : { status: STATUS[call.status] }),
        toolCall: { ...toolCall, response: toolCall.response ?? existing.toolCall.response },
        data: { ...existing.data, acp }
      })
      return existing.id
    }
    this.acc.closeNarrative()
    return this.acc.add({
      kind: 'tool_call',
      status: STATUS[call.status],
      text: '',
      toolCall,
      data: { acp }
    }).id
  }

  /** A call of our own for a request no agent call names (a boundary ask, a bare write). */
  syntheticCall(id: string, method: string, detail: Record<string, string>, status: BlockStatus): string {
    const existing = this.callBlock(id)
    if (existing) return existing.id
    this.acc.closeNarrative()
    return this.acc.add({
      kind: 'tool_call',
      status,
      text: '',
      toolCall: {
        id,
        name: `acp_${method.replace(/[^a-zA-Z0-9]+/g, '_')}`,
        params: JSON.stringify(detail),
        serverName: this.agent.name,
        ...(status === 'success' ? { response: `${method} ${Object.values(detail).join(' ')}` } : {})
      }
    }).id
  }

  /** An ask the user answers: an `action` block beside its call, and the interaction to open. */
  openPermission(ask: AcpPermissionAsk, toolCallId: string, interactionId: string): InteractionRequest {
    const call = this.callBlock(toolCallId)!
    const request = ask.request
    const data: ActionBlockData = {
      actionType: 'permission',
      interactionId,
      toolCallId,
      toolName: call.toolCall.name,
      request
    }
    const blockId = `action-${interactionId}`
    this.acc.update(call.id, 'tool_call', { status: 'pending', data: { ...call.data, interactionId } })
    this.acc.add({ id: blockId, kind: 'action', status: 'pending', text: '', data })
    return { id: interactionId, kind: 'permission', blockId, toolCallId, request: data }
  }

  /** After the answer: a granted call runs on (the agent reports how it went). */
  granted(toolCallId: string, synthetic: boolean): void {
    const call = this.callBlock(toolCallId)
    if (!call || call.status !== 'pending') return
    if (!synthetic) return this.acc.update(call.id, 'tool_call', { status: 'loading' })
    this.acc.update(call.id, 'tool_call', {
      status: 'success',
      toolCall: { ...call.toolCall, response: 'Allowed by the user.', isError: false }
    })
  }

  /** Whether the ask `interactionId` (if any) still waits for the user's answer. */
  private askOpen(interactionId: unknown): boolean {
    if (typeof interactionId !== 'string') return false
    return this.acc.blocks.some((b) => b.id === `action-${interactionId}` && b.status === 'pending')
  }

  callBlock(toolCallId: string): BlockOf<'tool_call'> | undefined {
    return this.acc.blocks.find(
      (b): b is BlockOf<'tool_call'> => b.kind === 'tool_call' && b.toolCall.id === toolCallId
    )
  }

  /** Whether the turn showed anything but errors and asks. */
  hasVisibleOutput(): boolean {
    return this.acc.blocks.some((b) => b.kind !== 'error' && b.kind !== 'action')
  }

  private content(role: 'message' | 'thought', item: AcpContentItem): void {
    if (item.type === 'image' && role === 'message') {
      this.acc.closeNarrative()
      this.acc.add({
        kind: 'image',
        status: 'success',
        text: '',
        data: { mimeType: item.mimeType, data: item.data }
      })
      return
    }
    const text = describeContent(item)
    this.acc.apply(
      role === 'message' ? { type: 'text', content: text } : { type: 'reasoning', reasoning_content: text }
    )
  }

  private plan(entries: AcpPlanEntry[]): void {
    const blockId = `plan-${this.messageId}`
    const existing = this.acc.getOf(blockId, 'plan')
    const data: PlanBlockData = {
      entries: entries.map((e) => ({ step: e.content, status: e.status })),
      revision: (existing?.data.revision ?? 0) + 1
    }
    if (existing) return this.acc.update(blockId, 'plan', { data })
    this.acc.closeNarrative()
    this.acc.add({ id: blockId, kind: 'plan', status: 'success', text: '', data })
  }
}

/** The call's arguments as the row shows them: the title, then the agent's own input (long strings cut). */
function paramsOf(call: AcpToolCall): string {
  const input = call.rawInput
  const fields =
    input && typeof input === 'object' && !Array.isArray(input)
      ? Object.fromEntries(Object.entries(input).map(([k, v]) => [k, cutString(v)]))
      : input === undefined
        ? {}
        : { input: cutString(input) }
  return JSON.stringify({ title: call.title, ...fields })
}

function cutString(value: unknown): unknown {
  return typeof value === 'string' && value.length > PARAM_STRING_LIMIT
    ? `${value.slice(0, PARAM_STRING_LIMIT)}… (${value.length - PARAM_STRING_LIMIT} more characters)`
    : value
}

/** A finished call's result as text: what it said, its diffs and terminal output, else its raw output. */
function resultOf(call: AcpToolCall): string {
  const parts = call.content.map((item) => {
    if (item.type === 'content') return describeContent(item.content)
    if (item.type === 'diff') return `${item.oldText === null ? 'Created' : 'Edited'} ${item.path}`
    const exit = item.exitStatus ? ` (exit ${item.exitStatus.exitCode ?? item.exitStatus.signal})` : ''
    return `$ ${item.command ?? ''}${exit}\n${item.output}`
  })
  let text = parts.filter(Boolean).join('\n').trim()
  if (!text && call.rawOutput !== undefined)
    text = typeof call.rawOutput === 'string' ? call.rawOutput : JSON.stringify(call.rawOutput)
  if (!text) text = call.status === 'failed' ? 'Failed.' : 'Done.'
  return text.length > RESULT_LIMIT ? `${text.slice(0, RESULT_LIMIT)}…` : text
}

function describeContent(item: AcpContentItem): string {
  switch (item.type) {
    case 'text':
      return item.text
    case 'resource_link':
      return `[${item.name}](${item.uri})`
    case 'resource':
      return item.text ?? `[${item.uri}]`
    default:
      return `[${item.type} ${item.mimeType}]`
  }
}

/** A terminal's output in a block keeps its end, so a long build log does not swell the message. */
function capOutput(item: AcpToolContent): AcpToolContent {
  if (item.type !== 'terminal' || item.output.length <= ACP_BLOCK_OUTPUT_LIMIT) return item
  return { ...item, output: item.output.slice(-ACP_BLOCK_OUTPUT_LIMIT), truncated: true }
}

/**
 * The user's message as the agent's prompt: its text, images inline, stored attachments as
 * their extracted text (agents need not support embedded resources), older saved files as links.
 */
export function promptContent(
  content: UserMessageContent | null,
  attachments?: AttachmentReader,
  log?: (m: string) => void
): AcpPromptContent[] {
  const out: AcpPromptContent[] = []
  if (content?.text) out.push({ type: 'text', text: content.text })
  for (const file of content?.files ?? []) {
    try {
      const part = filePart(file, attachments)
      if (part) {
        out.push(part)
        continue
      }
    } catch (error) {
      log?.(`attachment ${file.name} unreadable: ${String(error)}`)
    }
    // A stored `path` is never handed on or read: only the attachment store's bytes are sent.
    out.push({ type: 'text', text: `[Attachment ${file.name} could not be read]` })
  }
  return out.length ? out : [{ type: 'text', text: '' }]
}

function filePart(file: MessageFile, attachments: AttachmentReader | undefined): AcpPromptContent | null {
  const image = file.mimeType?.startsWith('image/') ? file.mimeType : null
  if (file.sha256 && attachments) {
    if (image)
      return { type: 'image', mimeType: image, data: attachments.bytes(file.sha256).toString('base64') }
    return { type: 'text', text: `Attached file ${file.name}:\n${attachments.text(file.sha256)}` }
  }
  return null
}
