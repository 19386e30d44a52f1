import type { LLMMessage, LLMToolCall, ProviderOptions } from '@shared/types/llm'
import type { BlockOf, MessageBlock, ToolResultItem } from '@shared/types/blocks'
import type { ToolContentItem } from '@shared/types/tools'

type AssistantPart =
  { type: 'text'; text: string } | { type: 'reasoning'; text: string; providerOptions?: ProviderOptions }

/** What the model reads for a call that has no result: it was stopped, or never ran. */
export const CANCELLED_RESULT =
  'The user stopped this call before it finished; it may or may not have taken effect. Do not assume it succeeded.'
export const NOT_RUN_RESULT = 'This call did not run: the reply ended before it could.'

/**
 * Turns an assistant message's blocks into provider messages: each run of text/reasoning and
 * the tool calls after it is one assistant message, followed by one tool message per call.
 * Every call the model made stays, so the history never shows two user messages in a row: a
 * cancelled call gets a result saying so; in an ended message (`ended`), a call still pending
 * or running never ran. Calls of a running turn still waiting (for the user, say) are left out.
 */
export function blocksToMessages(
  blocks: readonly MessageBlock[],
  options: { keepReasoning: boolean; ended?: boolean }
): LLMMessage[] {
  const out: LLMMessage[] = []
  let parts: AssistantPart[] = []
  let calls: { call: LLMToolCall; block: BlockOf<'tool_call'> }[] = []
  const flush = () => {
    if (parts.length === 0 && calls.length === 0) return
    const text = parts.filter((p) => p.type === 'text')
    if (calls.length === 0 && text.length === 0) {
      parts = []
      return // reasoning alone carries nothing the next request needs
    }
    out.push({ role: 'assistant', content: parts, toolCalls: calls.map((c) => c.call) })
    for (const { call, block } of calls) out.push(toolMessage(call, block))
    parts = []
    calls = []
  }
  for (const block of blocks) {
    if (block.kind === 'content' || block.kind === 'reasoning_content') {
      if (calls.length > 0) flush()
      if (!block.text) continue
      if (block.kind === 'content') parts.push({ type: 'text', text: block.text })
      else if (options.keepReasoning)
        parts.push({ type: 'reasoning', text: block.text, providerOptions: block.data?.providerOptions })
    } else if (block.kind === 'tool_call' && (hasResult(block) || isClosed(block, options.ended === true))) {
      const providerOptions = block.data?.providerOptions
      calls.push({
        call: {
          id: block.toolCall.id,
          name: block.toolCall.name,
          arguments: block.toolCall.params || '{}',
          ...(providerOptions ? { providerOptions } : {})
        },
        block
      })
    }
  }
  flush()
  return out
}

/** A call without a result that will never get one. */
function isClosed(block: BlockOf<'tool_call'>, ended: boolean): boolean {
  return block.status === 'cancelled' || block.status === 'error' || ended
}

function toolMessage(call: LLMToolCall, block: BlockOf<'tool_call'>): LLMMessage {
  const base = { role: 'tool' as const, toolCallId: call.id, toolName: call.name }
  if (!hasResult(block)) {
    const text =
      block.status === 'cancelled'
        ? CANCELLED_RESULT
        : block.status === 'error'
          ? 'Error: the call failed without output.'
          : NOT_RUN_RESULT
    return { ...base, content: text, isError: true }
  }
  const isError = block.status === 'error' || block.toolCall.isError === true || undefined
  const text = block.toolCall.response || '(no output)'
  const images = (block.data?.items ?? []).filter((item) => item.type === 'image' && item.data)
  if (images.length === 0) return { ...base, content: text, isError }
  const imageParts = images.map((image) => ({
    type: 'image' as const,
    data: (image as { data: string }).data,
    mimeType: (image as { mimeType: string }).mimeType
  }))
  return { ...base, content: [{ type: 'text', text }, ...imageParts], isError }
}

export function hasResult(block: BlockOf<'tool_call'>): boolean {
  return (
    (block.status === 'success' || block.status === 'error' || block.status === 'denied') &&
    block.toolCall.response !== undefined
  )
}

/**
 * A tool result as text for the model: text as is; embedded resources by their text (or uri,
 * type and size when binary); links by name, uri, type and description; images and audio as a
 * short note (images also go to the model as image parts where it can take them).
 */
export function resultText(content: readonly ToolContentItem[]): string {
  return content.map(itemText).join('\n')
}

function itemText(item: ToolContentItem): string {
  switch (item.type) {
    case 'text':
      return item.text
    case 'resource': {
      const { uri, mimeType, text, blob } = item.resource
      if (text !== undefined) return `[resource ${uri}${mimeType ? ` (${mimeType})` : ''}]\n${text}`
      return `[resource ${uri}: ${mimeType ?? 'binary'}, ${base64Bytes(blob ?? '')} bytes, not shown]`
    }
    case 'resource_link': {
      const what = [item.mimeType, item.description].filter(Boolean).join(', ')
      return `[link ${item.name ? `${item.name} ` : ''}${item.uri}${what ? ` (${what})` : ''}]`
    }
    case 'image':
      return `[image ${item.mimeType}]`
    case 'audio':
      return `[audio ${item.mimeType}, ${base64Bytes(item.data)} bytes; audio is not sent to the model]`
  }
}

/** The items of a result worth keeping on its block besides the text (see `ToolResultItem`). */
export function resultItems(content: readonly ToolContentItem[]): ToolResultItem[] {
  return content.filter((item): item is ToolResultItem => item.type !== 'text')
}

function base64Bytes(data: string): number {
  return Math.floor((data.replace(/=+$/, '').length * 3) / 4)
}

export { userToMessage } from './userMessage'

/** Rough token count: about four characters per token, images a flat 512. */
export function estimateTokens(messages: readonly LLMMessage[]): number {
  let chars = 0
  let images = 0
  for (const message of messages) {
    const content = message.content
    if (typeof content === 'string') chars += content.length
    else if (Array.isArray(content)) {
      for (const part of content) {
        if (part.type === 'image') images++
        else chars += part.text.length
      }
    }
    if (message.role === 'assistant')
      for (const call of message.toolCalls ?? []) chars += call.name.length + call.arguments.length
    chars += 8
  }
  return Math.ceil(chars / 4) + images * 512
}

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4)
}
