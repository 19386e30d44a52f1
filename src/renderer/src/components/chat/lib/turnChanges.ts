import { builtinToolFacts } from '@shared/builtinTools'
import type { ChatMessageView } from '@shared/types/chat'

/** An answer called a tool that records its file changes (write, edit, exec): its checkpoint may list them. */
export function changesFiles(message: ChatMessageView): boolean {
  return message.blocks.some(
    (b) => b.kind === 'tool_call' && builtinToolFacts(b.toolCall?.name ?? '').capturesCheckpoint
  )
}

/** The answers to the user message `userMessageId` (up to the next user message) changed files. */
export function turnChangesFiles(messages: readonly ChatMessageView[], userMessageId: string): boolean {
  const start = messages.findIndex((m) => m.id === userMessageId)
  if (start < 0) return false
  for (let i = start + 1; i < messages.length && messages[i].role !== 'user'; i++)
    if (changesFiles(messages[i])) return true
  return false
}
