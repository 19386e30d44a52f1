import { z } from 'zod'
import { ProviderErrorCategory, ProviderOptionsSchema } from './llm'
import { PermissionRequest } from './permission'
import { AcpToolCallBlockData } from './acp'
import { McpNonTextItem } from './mcp'
import { WebSource } from './webSearch'

/**
 * The parts of an assistant message. `MessageBlock` is a union discriminated by `kind`; each
 * kind has its own typed `data` (and a `tool_call` its `toolCall`). The same shape is stored in
 * `message_blocks` rows, carried by `chat.stream.delta` upserts and written into the tape's
 * message facts. Rows written by older builds are read with `readStoredBlock`, never trusted.
 */

export const BlockKind = z.enum([
  'content',
  'reasoning_content',
  'tool_call',
  'action',
  'plan',
  'image',
  'error'
])
export type BlockKind = z.infer<typeof BlockKind>

export const BlockStatus = z.enum([
  'pending',
  'loading',
  'success',
  'error',
  'granted',
  'denied',
  'cancelled'
])
export type BlockStatus = z.infer<typeof BlockStatus>

// ---------------------------------------------------------------------------------------------
// Data by kind
// ---------------------------------------------------------------------------------------------

/** `content` and `reasoning_content`: provider data that must go back with the text (thinking signatures). */
export const NarrativeBlockData = z.object({
  providerOptions: ProviderOptionsSchema.optional(),
  /** `content` only: the pages the provider's own web search cited for this text (http(s) links). */
  sources: z.array(WebSource).optional()
})
export type NarrativeBlockData = z.infer<typeof NarrativeBlockData>

/** The call itself, on a `tool_call` block: arguments stream into `params`, the result lands in `response`. */
export const ToolCallData = z.object({
  id: z.string(),
  name: z.string(),
  params: z.string().default(''),
  response: z.string().optional(),
  isError: z.boolean().optional(),
  serverName: z.string().optional()
})
export type ToolCallData = z.infer<typeof ToolCallData>

/**
 * A non-text item of a tool's result, kept on its block so the UI can show it and later requests
 * can send it again (images to vision models). The result's text is `toolCall.response`.
 * Media `data` is base64 without a `data:` prefix. Same shape as `ToolContentItem`.
 */
export const ToolResultItem = McpNonTextItem
export type ToolResultItem = z.infer<typeof ToolResultItem>

/** `tool_call` block data. */
export const ToolCallBlockData = z.object({
  /** The result's images, audio, embedded resources and resource links, in the result's order. */
  items: z.array(ToolResultItem).optional(),
  /** Progress text of a long call (MCP progress, a subagent run), set while the block is `loading`. */
  progress: z.string().optional(),
  /** Set when the output was spilled to a file (the tool result shows a preview). */
  spilledPath: z.string().optional(),
  /** The interaction (permission or question) the call waits for. */
  interactionId: z.string().optional(),
  providerOptions: ProviderOptionsSchema.optional(),
  /** A call an ACP agent made in its turn: its kind, locations, diffs and terminals. */
  acp: AcpToolCallBlockData.optional()
})
export type ToolCallBlockData = z.infer<typeof ToolCallBlockData>

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
 * `allow_server_session` / `allow_server_always`: an MCP request only — every tool of its server,
 * for this chat (a session grant) or from now on (an `mcp: <server>/*` rule).
 */
export const PermissionAnswer = z.enum([
  'allow_once',
  'allow_session',
  'allow_always',
  'allow_server_session',
  'allow_server_always',
  'deny'
])
export type PermissionAnswer = z.infer<typeof PermissionAnswer>

export const QuestionAnswer = z.object({
  selected: z.array(z.string()),
  text: z.string().optional(),
  skipped: z.boolean()
})
export type QuestionAnswer = z.infer<typeof QuestionAnswer>

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
    decision: PermissionAnswer.optional()
  }),
  z.object({
    actionType: z.literal('question'),
    interactionId: z.string(),
    toolCallId: z.string(),
    question: QuestionSpec,
    answer: QuestionAnswer.optional()
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

/** `image` block data: an image the model produced, or one a tool produced as its answer. */
export const ImageBlockData = z.object({
  mimeType: z.string(),
  /** Base64, no `data:` prefix. */
  data: z.string(),
  /** Where the tool saved it. */
  path: z.string().optional(),
  /** The call that produced it (tool images). */
  toolCallId: z.string().optional()
})
export type ImageBlockData = z.infer<typeof ImageBlockData>

/** Why a turn ended badly. The `error` block's `text` is a readable message (or raw provider text). */
export const ChatErrorCode = z.enum([
  'user_cancelled',
  'interrupted',
  'provider_error',
  'no_model_response',
  'context_overflow',
  'tool_call_limit',
  'repeated_tool_call',
  'internal',
  /** A stored block this build cannot read (written by another version, or damaged). */
  'unreadable_block',
  /** The data folder could not be written: disk full, I/O error, read-only, removed. */
  'storage'
])
export type ChatErrorCode = z.infer<typeof ChatErrorCode>

export const ErrorBlockData = z.object({
  code: ChatErrorCode,
  /** For `provider_error` and `context_overflow`: what the provider's failure was. */
  category: ProviderErrorCategory.optional(),
  /** The provider's HTTP status, when it answered with one. */
  status: z.number().int().optional()
})
export type ErrorBlockData = z.infer<typeof ErrorBlockData>

// ---------------------------------------------------------------------------------------------
// Blocks
// ---------------------------------------------------------------------------------------------

const BlockBase = z.object({
  id: z.string().min(1).max(100),
  status: BlockStatus,
  text: z.string().default(''),
  createdAt: z.number().int(),
  updatedAt: z.number().int()
})

export const ContentBlock = BlockBase.extend({
  kind: z.literal('content'),
  data: NarrativeBlockData.optional()
})
export const ReasoningBlock = BlockBase.extend({
  kind: z.literal('reasoning_content'),
  data: NarrativeBlockData.optional()
})
export const ToolCallBlock = BlockBase.extend({
  kind: z.literal('tool_call'),
  toolCall: ToolCallData,
  data: ToolCallBlockData.optional()
})
export const ActionBlock = BlockBase.extend({ kind: z.literal('action'), data: ActionBlockData })
export const PlanBlock = BlockBase.extend({ kind: z.literal('plan'), data: PlanBlockData })
export const ImageBlock = BlockBase.extend({ kind: z.literal('image'), data: ImageBlockData })
export const ErrorBlock = BlockBase.extend({ kind: z.literal('error'), data: ErrorBlockData })

export const MessageBlock = z.discriminatedUnion('kind', [
  ContentBlock,
  ReasoningBlock,
  ToolCallBlock,
  ActionBlock,
  PlanBlock,
  ImageBlock,
  ErrorBlock
])
export type MessageBlock = z.infer<typeof MessageBlock>

/** The block of one kind: `BlockOf<'tool_call'>` has `toolCall` and tool-call data. */
export type BlockOf<K extends BlockKind> = Extract<MessageBlock, { kind: K }>

/** `Omit` that keeps a union a union (a plain `Omit` would merge the kinds into one shape). */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

/** A block as callers hand it to the store: times are filled in, `text` and `params` may be left out. */
export type MessageBlockInput = DistributiveOmit<z.input<typeof MessageBlock>, 'createdAt' | 'updatedAt'> & {
  createdAt?: number
  updatedAt?: number
}

// ---------------------------------------------------------------------------------------------
// Reading stored blocks
// ---------------------------------------------------------------------------------------------

export const UNREADABLE_BLOCK_TEXT = 'This part of the message was saved in a form this version cannot show.'

const StoredBase = z.object({
  id: z.string().min(1).max(100),
  text: z.string().catch(''),
  createdAt: z.number().int(),
  updatedAt: z.number().int()
})

/**
 * A block from storage (a `message_blocks` row, a tape fact), written by this or another build.
 * Never throws: a block that fits its kind is returned as is; one whose `data` does not fit
 * keeps its text, call and status without the data; anything else becomes an `error` block
 * (`unreadable_block`) that keeps the text. Null only when not even an id and times are there.
 */
export function readStoredBlock(raw: unknown): MessageBlock | null {
  const exact = MessageBlock.safeParse(raw)
  if (exact.success) return exact.data
  if (!raw || typeof raw !== 'object') return null
  const base = StoredBase.safeParse(raw)
  if (!base.success) return null
  const withoutData = MessageBlock.safeParse(
    Object.fromEntries(Object.entries(raw).filter(([k]) => k !== 'data'))
  )
  return withoutData.success ? withoutData.data : unreadableBlock(base.data)
}

/** What stands in for a stored block that cannot be read: an error block that keeps its text. */
export function unreadableBlock(base: {
  id: string
  text: string
  createdAt: number
  updatedAt: number
}): BlockOf<'error'> {
  return {
    id: base.id,
    kind: 'error',
    status: 'error',
    text: base.text || UNREADABLE_BLOCK_TEXT,
    data: { code: 'unreadable_block' },
    createdAt: base.createdAt,
    updatedAt: base.updatedAt
  }
}
