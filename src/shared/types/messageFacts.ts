import { z } from 'zod'
import type { DistributiveOmit, MessageBlock } from './blocks'
import { MessageRole, type MessageStatus, type UserMessageContent } from './session'

/**
 * Payloads of the tape facts a chat writes (`sessionPresenter/facts.ts`). A message fact carries
 * the whole message so the tape alone can rebuild the conversation; tool facts make calls and
 * results searchable on their own.
 */

/** A block inside a message fact: its times are the fact's own. */
export type BlockFact = DistributiveOmit<MessageBlock, 'createdAt' | 'updatedAt'>

type MessageFactBase = {
  messageId: string
  orderSeq: number
  status: MessageStatus
}

/** Payload of a `message` entry (`message/user`, `message/assistant`). */
export type MessageFact =
  | (MessageFactBase & { role: 'user'; content: UserMessageContent | null })
  | (MessageFactBase & { role: 'assistant'; blocks: BlockFact[]; metadata: Record<string, unknown> })

/**
 * How a message fact is read back. Only the frame is checked here; the user content and each
 * block are parsed leniently by the reader (facts written by older builds stay readable).
 */
export const MessageFactFrame = z.object({
  messageId: z.string(),
  orderSeq: z.number(),
  role: MessageRole,
  status: z.string().catch(''),
  content: z.unknown().optional(),
  blocks: z.array(z.unknown()).catch([]).optional()
})

// Type aliases, not interfaces: a payload must fit the tape's JSON object type.

/** Payload of a `tool_call` entry. */
export type ToolCallFact = {
  messageId: string
  toolCallId: string
  name: string
  params: string
}

/** Payload of a `tool_result` entry. */
export type ToolResultFact = {
  messageId: string
  toolCallId: string
  name: string
  response: string
  isError: boolean
}
