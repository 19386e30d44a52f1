import { z } from 'zod'
import { PermissionMode as PermissionModeEnum } from './permission'
import { MessageBlock } from './blocks'
import { MessageFile } from './attachments'
import { WebSearchMode } from './webSearch'

export {
  BlockKind,
  BlockStatus,
  MessageBlock,
  ToolCallData,
  type BlockOf,
  type MessageBlockInput
} from './blocks'

export const SessionKind = z.enum(['regular', 'subagent'])
export type SessionKind = z.infer<typeof SessionKind>

/** Unknown or missing means `default` (ask): least privilege, never the widest mode. */
export const PermissionMode = PermissionModeEnum.catch('default')
export type PermissionMode = z.infer<typeof PermissionMode>

export const SessionStatus = z.enum(['idle', 'generating', 'awaiting_interaction', 'error'])
export type SessionStatus = z.infer<typeof SessionStatus>

export const GenerationSettings = z
  .object({
    systemPrompt: z.string().max(100_000).optional(),
    temperature: z.number().min(0).max(2).optional(),
    topP: z.number().min(0).max(1).optional(),
    contextLength: z.number().int().positive().optional(),
    maxTokens: z.number().int().positive().optional(),
    timeoutMs: z.number().int().positive().optional(),
    thinkingBudget: z.number().int().nonnegative().optional(),
    reasoningEffort: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
    /** How this chat searches the web; unset: Settings › Web search's choice. */
    webSearch: WebSearchMode.optional()
  })
  .strict()
export type GenerationSettings = z.infer<typeof GenerationSettings>

export const SubagentMeta = z.object({
  slotId: z.string().min(1),
  displayName: z.string().min(1),
  runId: z.string().optional(),
  taskId: z.string().optional(),
  forkId: z.string().optional(),
  /**
   * What the child's model sees before its first prompt: `handoff` (default, a subagent) only
   * that prompt; `inherited` (a compare run) the parent chat's messages up to the fork too.
   */
  history: z.enum(['handoff', 'inherited']).optional()
})
export type SubagentMeta = z.infer<typeof SubagentMeta>

export const SessionRecord = z.object({
  id: z.string(),
  kind: SessionKind,
  parentSessionId: z.string().nullable(),
  tapeId: z.string(),
  title: z.string(),
  /** The folder the chat works in: one the user chose, or its own scratch folder in the data folder. */
  workspaceDir: z.string(),
  /** True when `workspaceDir` is the chat's scratch folder (no folder was chosen). */
  workspaceIsScratch: z.boolean(),
  providerId: z.string().nullable(),
  modelId: z.string().nullable(),
  permissionMode: PermissionMode,
  generationSettings: GenerationSettings,
  subagentMeta: SubagentMeta.nullable(),
  pinned: z.boolean(),
  status: SessionStatus,
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  lastActivityAt: z.number().int()
})
export type SessionRecord = z.infer<typeof SessionRecord>

export const CreateSessionInput = z
  .object({
    title: z.string().trim().max(200).optional(),
    workspaceDir: z.string().max(4096).nullable().optional(),
    providerId: z.string().max(200).nullable().optional(),
    modelId: z.string().max(200).nullable().optional(),
    permissionMode: PermissionMode.optional(),
    generationSettings: GenerationSettings.optional()
  })
  .strict()
export type CreateSessionInput = z.input<typeof CreateSessionInput>

export const MessageRole = z.enum(['user', 'assistant'])
export type MessageRole = z.infer<typeof MessageRole>

/**
 * `pending` (created, nothing streamed yet) → `streaming` → `sent` | `error` | `cancelled`, or
 * `awaiting_interaction` while a permission request or question is open.
 */
export const MessageStatus = z.enum([
  'pending',
  'streaming',
  'awaiting_interaction',
  'sent',
  'error',
  'cancelled'
])
export type MessageStatus = z.infer<typeof MessageStatus>

export const UserMessageContent = z.object({
  text: z.string().max(1_000_000),
  /** Attached files: by content hash in the attachment store (older messages: a saved image's path). */
  files: z.array(MessageFile).default([]),
  links: z.array(z.string()).default([])
})
export type UserMessageContent = z.infer<typeof UserMessageContent>

export const MessageRecord = z.object({
  id: z.string(),
  sessionId: z.string(),
  orderSeq: z.number().int().positive(),
  role: MessageRole,
  status: MessageStatus,
  /** The user's input; for assistant messages the text lives in the blocks. */
  content: UserMessageContent.nullable(),
  blocks: z.array(MessageBlock),
  metadata: z.record(z.string(), z.unknown()),
  /** The last tape entry that recorded this message, null while only the projection has it. */
  tapeEntryId: z.number().int().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int()
})
export type MessageRecord = z.infer<typeof MessageRecord>

export const InteractionKind = z.enum(['permission', 'question'])
export type InteractionKind = z.infer<typeof InteractionKind>

export const InteractionStatus = z.enum(['pending', 'granted', 'denied', 'answered', 'cancelled'])
export type InteractionStatus = z.infer<typeof InteractionStatus>

export const PendingInteraction = z.object({
  id: z.string(),
  sessionId: z.string(),
  messageId: z.string(),
  blockId: z.string().nullable(),
  toolCallId: z.string().nullable(),
  kind: InteractionKind,
  status: InteractionStatus,
  request: z.record(z.string(), z.unknown()),
  response: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.number().int(),
  resolvedAt: z.number().int().nullable()
})
export type PendingInteraction = z.infer<typeof PendingInteraction>

/**
 * One message that matches a history search. `snippet` is the message's own text around the
 * match; `highlights` are [start, end) offsets of the matches in it (the UI marks them).
 */
export const SessionSearchHit = z.object({
  sessionId: z.string(),
  sessionTitle: z.string(),
  messageId: z.string(),
  role: MessageRole,
  snippet: z.string(),
  highlights: z.array(z.tuple([z.number().int().min(0), z.number().int().min(0)])),
  entryId: z.number().int(),
  kind: z.string(),
  name: z.string().nullable(),
  createdAt: z.number().int(),
  summary: z.string(),
  score: z.number(),
  matchedBy: z.enum(['fts', 'substring'])
})
export type SessionSearchHit = z.infer<typeof SessionSearchHit>
