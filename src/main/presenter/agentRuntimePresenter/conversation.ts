import type { LLMMessage, LLMToolCall, ProviderOptions } from '@shared/types/llm'
import type { BlockOf, MessageBlock } from '@shared/types/blocks'

type AssistantPart =
  { type: 'text'; text: string } | { type: 'reasoning'; text: string; providerOptions?: ProviderOptions }

/**
 * Turns an assistant message's blocks into provider messages: each run of text/reasoning and
 * the tool calls after it is one assistant message, followed by one tool message per call.
 * Calls without a result (never run, cancelled, still waiting) are left out so every call the
 * model sees has its result.
 */
export function blocksToMessages(
  blocks: readonly MessageBlock[],
  options: { keepReasoning: boolean }
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
    for (const { call, block } of calls) {
      out.push({
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: block.toolCall.response || '(no output)',
        isError: block.status === 'error' || block.toolCall.isError === true || undefined
      })
    }
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
    } else if (block.kind === 'tool_call' && hasResult(block)) {
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

export function hasResult(block: BlockOf<'tool_call'>): boolean {
  return (
    (block.status === 'success' || block.status === 'error' || block.status === 'denied') &&
    block.toolCall.response !== undefined
  )
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
