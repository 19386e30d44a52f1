import { z } from 'zod'
import { defineRoute } from '../define'
import {
  ChatImageInput,
  ChatMessageView,
  InteractionResponse,
  NewChatOptions,
  QueuedInput
} from '../../types/chat'
import { ATTACHMENT_LIMITS, AttachmentInput } from '../../types/attachments'

const SessionId = z.string().min(1).max(100)
const MessageId = z.string().min(1).max(100)
const Text = z.string().max(1_000_000)

/** What every call that starts a turn returns, as soon as the turn is accepted. */
const TurnAccepted = z.object({
  sessionId: z.string(),
  /** False when the session was busy: the text was queued (see `queued`) and starts later. */
  started: z.boolean(),
  userMessageId: z.string().nullable(),
  assistantMessageId: z.string().nullable(),
  /** Set when the input was queued behind an active run (steering). */
  queued: QueuedInput.nullable()
})

/**
 * Sends a user message. Without `sessionId` a new session is created (title from the text).
 * Returns when the turn is accepted; the answer arrives as `chat.stream.*` events. While a run
 * is active the text is queued and picked up at the next tool boundary or when the run ends.
 * A session waiting for a permission or question answer refuses new messages (`session_busy`).
 */
export const chatSendMessage = defineRoute({
  name: 'chat.sendMessage',
  input: z
    .object({
      sessionId: SessionId.optional(),
      text: Text,
      images: z.array(ChatImageInput).max(10).optional(),
      /** Files uploaded through `attachments.*` first, named by content hash. */
      attachments: z.array(AttachmentInput).max(ATTACHMENT_LIMITS.maxFiles).optional(),
      newSession: NewChatOptions.optional()
    })
    .strict(),
  output: TurnAccepted
})

/**
 * Stops the session's run: the provider request and running tools are aborted (MCP calls are
 * cancelled); on a paused message every pending interaction is denied. Queued input is dropped.
 */
export const chatStop = defineRoute({
  name: 'chat.stop',
  input: z.object({ sessionId: SessionId }).strict(),
  output: z.object({ stopped: z.boolean(), messageId: z.string().nullable() })
})

/**
 * Answers one pending permission request or question, in any order. When it was the last one
 * open on the message, a new run continues the same assistant message (`resumed: true`). Returns
 * at once; it never waits for the resumed run.
 */
export const chatRespondToolInteraction = defineRoute({
  name: 'chat.respondToolInteraction',
  input: z
    .object({
      sessionId: SessionId,
      messageId: MessageId,
      interactionId: z.string().min(1).max(100),
      response: InteractionResponse
    })
    .strict(),
  output: z.object({
    accepted: z.literal(true),
    remaining: z.number().int().nonnegative(),
    resumed: z.boolean()
  })
})

/** A page of messages, newest page first (`beforeOrderSeq` pages backwards), oldest to newest. */
export const chatGetMessages = defineRoute({
  name: 'chat.getMessages',
  input: z
    .object({
      sessionId: SessionId,
      beforeOrderSeq: z.number().int().positive().optional(),
      limit: z.number().int().min(1).max(200).optional()
    })
    .strict(),
  output: z.object({ messages: z.array(ChatMessageView), hasMore: z.boolean() })
})

/** One message with its live stream position: re-read this after a missed delta. */
export const chatGetMessage = defineRoute({
  name: 'chat.getMessage',
  input: z.object({ messageId: MessageId }).strict(),
  output: z.object({ message: ChatMessageView })
})

/**
 * Generates a new answer for the user message `messageId` (an assistant message) answers. The
 * new answer is a variant beside the old one and is shown; the old answer (and anything after
 * it) leaves the model's context and `chat.getMessages` until the user switches back.
 */
export const chatRetry = defineRoute({
  name: 'chat.retry',
  input: z.object({ sessionId: SessionId, messageId: MessageId }).strict(),
  output: TurnAccepted
})

/**
 * A new variant of a user message with the new text, answered anew. The old prompt (and what
 * followed it) leaves the context and `chat.getMessages` until the user switches back to it.
 */
export const chatEditAndResend = defineRoute({
  name: 'chat.editAndResend',
  input: z.object({ sessionId: SessionId, messageId: MessageId, text: Text }).strict(),
  output: TurnAccepted
})

/** Shows another variant of a message (`variants.ids` of a message view); the choice is kept. */
export const chatSelectVariant = defineRoute({
  name: 'chat.selectVariant',
  input: z.object({ sessionId: SessionId, messageId: MessageId }).strict(),
  output: z.object({ changed: z.boolean() })
})

/**
 * Deletes a message from the chat, the model's context and exports: a user message with its
 * answers, or one answer. It stays on the tape; `chat.restoreMessages` with the ids undoes it.
 */
export const chatDeleteMessage = defineRoute({
  name: 'chat.deleteMessage',
  input: z.object({ sessionId: SessionId, messageId: MessageId }).strict(),
  output: z.object({ messageIds: z.array(z.string()) })
})

export const chatRestoreMessages = defineRoute({
  name: 'chat.restoreMessages',
  input: z.object({ sessionId: SessionId, messageIds: z.array(MessageId).min(1).max(200) }).strict(),
  output: z.object({ messageIds: z.array(z.string()) })
})

/** Inputs waiting behind the active run. */
export const chatListQueue = defineRoute({
  name: 'chat.listQueue',
  input: z.object({ sessionId: SessionId }).strict(),
  output: z.object({ items: z.array(QueuedInput) })
})

export const chatCancelQueued = defineRoute({
  name: 'chat.cancelQueued',
  input: z.object({ sessionId: SessionId, inputId: z.string().min(1).max(100) }).strict(),
  output: z.object({ removed: z.boolean() })
})
