import type { ChatMessageView } from '@shared/types/chat'

/** Tools whose calls change files (their turn's checkpoint may list changed files). */
const CHANGING_TOOLS = ['write', 'edit', 'exec']

/** An answer wrote, edited or ran commands. */
export function changesFiles(message: ChatMessageView): boolean {
  return message.blocks.some((b) => b.kind === 'tool_call' && CHANGING_TOOLS.includes(b.toolCall?.name ?? ''))
}

/** The answers to the user message `userMessageId` (up to the next user message) changed files. */
export function turnChangesFiles(messages: readonly ChatMessageView[], userMessageId: string): boolean {
  const start = messages.findIndex((m) => m.id === userMessageId)
  if (start < 0) return false
  for (let i = start + 1; i < messages.length && messages[i].role !== 'user'; i++)
    if (changesFiles(messages[i])) return true
  return false
}
