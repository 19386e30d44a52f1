import { z } from 'zod'
import { defineEvent } from '../define'
import { ChatErrorCode, DeltaOp, PlanBlockData, QueuedInput } from '../../types/chat'
import { ProviderErrorCategory } from '../../types/llm'
import { MessageRecord, MessageStatus, PendingInteraction } from '../../types/session'

const StreamHeader = {
  sessionId: z.string(),
  messageId: z.string(),
  /** One run = one provider loop on the message; a resume is a new run on the same message. */
  runId: z.string(),
  /** 1, 2, 3… per run, no gaps. A renderer that sees a gap re-reads with `chat.getMessage`. */
  seq: z.number().int().positive()
}

/** Changes to a streaming message, batched at most every 50 ms. Apply `ops` in order. */
export const chatStreamDelta = defineEvent({
  name: 'chat.stream.delta',
  payload: z.object({ ...StreamHeader, ops: z.array(DeltaOp).min(1) })
})

/** The run finished: the message is `sent`. Its `seq` is the last delta's + 1, so a gap before it shows a miss. */
export const chatStreamCompleted = defineEvent({
  name: 'chat.stream.completed',
  payload: z.object({
    ...StreamHeader,
    status: MessageStatus,
    usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }).nullable()
  })
})

/** The run ended with an error or was stopped: the message is `error` or `cancelled`, partial text kept. */
export const chatStreamFailed = defineEvent({
  name: 'chat.stream.failed',
  payload: z.object({
    ...StreamHeader,
    status: MessageStatus,
    error: z.object({
      code: ChatErrorCode,
      message: z.string(),
      /** For provider failures: which kind (the UI words and acts on it). */
      category: ProviderErrorCategory.optional(),
      status: z.number().int().optional()
    })
  })
})

/**
 * A provider request failed before any output and is retried after `delayMs` (rate limit,
 * overload, server error). The UI shows "retrying in N s" counting down to `retryAt`; the next
 * delta or terminal event of the message ends it.
 */
export const chatStreamRetrying = defineEvent({
  name: 'chat.stream.retrying',
  payload: z.object({
    sessionId: z.string(),
    messageId: z.string(),
    runId: z.string(),
    attempt: z.number().int().positive(),
    maxRetries: z.number().int().nonnegative(),
    delayMs: z.number().nonnegative(),
    /** Epoch ms when the next attempt starts. */
    retryAt: z.number(),
    category: ProviderErrorCategory,
    message: z.string()
  })
})

/** The run waits for the user: the message is `awaiting_interaction` with these open interactions. */
export const chatStreamPaused = defineEvent({
  name: 'chat.stream.paused',
  payload: z.object({ ...StreamHeader, interactions: z.array(PendingInteraction) })
})

/** A message the loop created (user or assistant): a new turn, a resumed queue item, a retry. */
export const chatMessageCreated = defineEvent({
  name: 'chat.message.created',
  payload: z.object({ sessionId: z.string(), message: MessageRecord })
})

/** Retry or edit took these messages out of the list (they stay on the tape); sent before the new turn's messages. */
export const chatMessagesSuperseded = defineEvent({
  name: 'chat.messages.superseded',
  payload: z.object({
    sessionId: z.string(),
    messageIds: z.array(z.string()),
    reason: z.enum(['retry', 'edit'])
  })
})

/** The chosen branch changed (another variant shown, messages deleted or restored): re-read the list. */
export const chatBranchChanged = defineEvent({
  name: 'chat.branch.changed',
  payload: z.object({ sessionId: z.string(), reason: z.enum(['variant', 'delete', 'restore']) })
})

/** The session's plan changed (also visible as the message's `plan` block). */
export const chatPlanUpdated = defineEvent({
  name: 'chat.plan.updated',
  payload: z.object({
    sessionId: z.string(),
    messageId: z.string(),
    blockId: z.string(),
    toolCallId: z.string(),
    plan: PlanBlockData
  })
})

/** The steering queue of a session changed. */
export const chatQueueChanged = defineEvent({
  name: 'chat.queue.changed',
  payload: z.object({ sessionId: z.string(), items: z.array(QueuedInput) })
})
