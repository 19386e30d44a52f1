import { z } from 'zod'
import { MessageBlock, MessageRecord, PendingInteraction, PermissionMode } from './session'
import { PermissionRequest, RuleDraft } from './permission'

/**
 * What the chat window and the chat loop exchange. Blocks themselves are `MessageBlock`
 * (types/session.ts): `content`, `reasoning_content`, `tool_call`, `action`, `plan`, `image`,
 * `error`, each with a stable id. The typed `data` shapes per kind are below.
 */

// ---------------------------------------------------------------------------------------------
// Block data (MessageBlock.data) by kind
// ---------------------------------------------------------------------------------------------

export const QuestionOption = z.object({ label: z.string(), description: z.string().optional() })
export const QuestionSpec = z.object({
  header: z.string().optional(),
  question: z.string(),
  options: z.array(QuestionOption).min(1).max(10),
  multiple: z.boolean(),
  custom: z.boolean()
})
export type QuestionSpec = z.infer<typeof QuestionSpec>

/**
 * `action` block data. `status` of the block: `pending` while waiting; a permission ends
 * `granted` | `denied`, a question `success` (answered) or `cancelled` (skipped / stopped).
 */
export const ActionBlockData = z.discriminatedUnion('actionType', [
  z.object({
    actionType: z.literal('permission'),
    interactionId: z.string(),
    toolCallId: z.string(),
    toolName: z.string(),
    request: PermissionRequest,
    /** How it was answered, once answered. */
    decision: z.enum(['allow_once', 'allow_session', 'allow_always', 'deny']).optional()
  }),
  z.object({
    actionType: z.literal('question'),
    interactionId: z.string(),
    toolCallId: z.string(),
    question: QuestionSpec,
    answer: z
      .object({ selected: z.array(z.string()), text: z.string().optional(), skipped: z.boolean() })
      .optional()
  })
])
export type ActionBlockData = z.infer<typeof ActionBlockData>

export const PlanEntry = z.object({
  step: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed'])
})
export type PlanEntry = z.infer<typeof PlanEntry>

/** `plan` block data: one plan block per message, upserted by every `update_plan` call. */
export const PlanBlockData = z.object({
  entries: z.array(PlanEntry),
  explanation: z.string().optional(),
  revision: z.number().int().min(1),
  /** Set when the turn ended before the plan did. */
  terminalReason: z.enum(['aborted', 'max_steps', 'error']).optional()
})
export type PlanBlockData = z.infer<typeof PlanBlockData>

/** `image` block data (model output image). */
export const ImageBlockData = z.object({ mimeType: z.string(), data: z.string() })

/** `tool_call` block data: progress text for long MCP calls, set while the block is `loading`. */
export const ToolCallBlockData = z.object({
  progress: z.string().optional(),
  /** Set when the output was spilled to a file (the tool result shows a preview). */
  spilledPath: z.string().optional()
})

/** `error` block text is one of these codes or raw provider text; `data.code` tells which. */
export const ChatErrorCode = z.enum([
  'user_cancelled',
  'interrupted',
  'provider_error',
  'no_model_response',
  'context_overflow',
  'tool_call_limit',
  'repeated_tool_call',
  'internal'
])
export type ChatErrorCode = z.infer<typeof ChatErrorCode>

// ---------------------------------------------------------------------------------------------
// Deltas: how a streaming message reaches the renderer
// ---------------------------------------------------------------------------------------------

/**
 * `append`: add `text` to the block's `text` (or, for a `tool_call` block, to `toolCall.params`
 * when `field` is `params`). `upsert`: replace the whole block (insert it at the end if new).
 */
export const DeltaOp = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('append'),
    blockId: z.string(),
    field: z.enum(['text', 'params']).default('text'),
    text: z.string()
  }),
  z.object({ op: z.literal('upsert'), block: MessageBlock })
])
export type DeltaOp = z.infer<typeof DeltaOp>

/** Where a message's stream stands: `seq` of the last delta applied to this state. */
export const StreamCursor = z.object({ runId: z.string(), seq: z.number().int().nonnegative() })
export type StreamCursor = z.infer<typeof StreamCursor>

// ---------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------

export const ChatImageInput = z.object({
  /** Base64 without the `data:` prefix. */
  data: z.string().min(1).max(20_000_000),
  mimeType: z.string().regex(/^image\/[a-z0-9.+-]+$/i, 'mimeType must be image/*'),
  name: z.string().max(500).optional()
})
export type ChatImageInput = z.infer<typeof ChatImageInput>

/** Settings for a session created by this send (ignored when `sessionId` is given). */
export const NewChatOptions = z
  .object({
    providerId: z.string().min(1).max(200).optional(),
    modelId: z.string().min(1).max(200).optional(),
    workspaceDir: z.string().max(4096).nullable().optional(),
    permissionMode: PermissionMode.optional()
  })
  .strict()

export const PermissionResponse = z
  .object({
    kind: z.literal('permission'),
    decision: z.enum(['allow_once', 'allow_session', 'allow_always', 'deny']),
    /** With `allow_always`: the rule to store instead of the request's suggested rule. */
    rule: RuleDraft.optional()
  })
  .strict()

/**
 * A question answer: chosen option labels and/or free text (when the question allows custom
 * text), or `skipped`. At least one of them must be present.
 */
export const QuestionResponse = z
  .object({
    kind: z.literal('question'),
    selected: z.array(z.string().max(200)).max(10).default([]),
    text: z.string().max(20_000).optional(),
    skipped: z.boolean().default(false)
  })
  .strict()

export const InteractionResponse = z.discriminatedUnion('kind', [PermissionResponse, QuestionResponse])
export type InteractionResponse = z.input<typeof InteractionResponse>

/** A message sent while a run was active: it waits for the next tool boundary or the end. */
export const QueuedInput = z.object({ id: z.string(), text: z.string(), createdAt: z.number().int() })
export type QueuedInput = z.infer<typeof QueuedInput>

/** A message as the chat window reads it: the projection plus the live stream position. */
export const ChatMessageView = MessageRecord.extend({
  /** Present while (or after) this message streamed in this process: deltas with a higher seq apply on top. */
  stream: StreamCursor.nullable()
})
export type ChatMessageView = z.infer<typeof ChatMessageView>

export { MessageBlock, MessageRecord, PendingInteraction }
