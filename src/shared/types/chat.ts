import { z } from 'zod'
import { GenerationSettings, MessageRecord, PendingInteraction, PermissionMode } from './session'
import { MessageBlock, PermissionAnswer } from './blocks'
import { RuleDraft } from './permission'

/**
 * What the chat window and the chat loop exchange. Blocks themselves are `MessageBlock`
 * (types/blocks.ts): `content`, `reasoning_content`, `tool_call`, `action`, `plan`, `image`,
 * `error`, each with a stable id and its own typed `data`.
 */

export {
  ActionBlockData,
  ChatErrorCode,
  ImageBlockData,
  PlanBlockData,
  PlanEntry,
  QuestionOption,
  QuestionSpec,
  ToolCallBlockData
} from './blocks'

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
    permissionMode: PermissionMode.optional(),
    /** An assistant from the library: its instructions, parameters, tool set and (unless given) model. */
    assistantId: z.string().min(1).max(100).optional(),
    /** Instructions and parameters chosen in the new-chat composer (replacing the defaults or the assistant's). */
    generationSettings: GenerationSettings.optional()
  })
  .strict()

export const PermissionResponse = z
  .object({
    kind: z.literal('permission'),
    decision: PermissionAnswer,
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
/** The variants a message is one of (Retry and Edit add one each): "‹ index/count ›". */
export const MessageVariants = z.object({
  index: z.number().int().positive(),
  count: z.number().int().positive(),
  /** Sibling message ids, oldest first. */
  ids: z.array(z.string())
})
export type MessageVariants = z.infer<typeof MessageVariants>

export const ChatMessageView = MessageRecord.extend({
  /** Present while (or after) this message streamed in this process: deltas with a higher seq apply on top. */
  stream: StreamCursor.nullable(),
  /** Set when the message has variants (a retried answer, an edited prompt); the shown one is `index`. */
  variants: MessageVariants.nullable().optional()
})
export type ChatMessageView = z.infer<typeof ChatMessageView>

export { MessageBlock, MessageRecord, PendingInteraction }
