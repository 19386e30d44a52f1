import { z } from 'zod'
import { ToolParametersSchema } from './tools'

/**
 * Opaque provider-specific data that must travel with a piece of content and be sent back
 * unchanged in the next request (Anthropic thinking signatures, Gemini thought signatures).
 * Shape: `{ [providerName]: { ...json } }`, exactly what the AI SDK calls provider metadata.
 */
export const ProviderOptionsSchema = z.record(z.string(), z.record(z.string(), z.unknown()))
export type ProviderOptions = z.infer<typeof ProviderOptionsSchema>

// ---------------------------------------------------------------------------------------------
// Messages the chat loop sends. Provider-neutral; each provider's wire format is produced from
// these by the AI SDK (see llmProviderPresenter/messageMapper.ts).
// ---------------------------------------------------------------------------------------------

export const TextPartSchema = z.object({ type: z.literal('text'), text: z.string() })
/** Image as base64 (no `data:` prefix). */
export const ImagePartSchema = z.object({
  type: z.literal('image'),
  data: z.string().min(1),
  mimeType: z.string().regex(/^image\//, 'mimeType must be image/*')
})
export const ReasoningPartSchema = z.object({
  type: z.literal('reasoning'),
  text: z.string(),
  providerOptions: ProviderOptionsSchema.optional()
})

export const LLMToolCallSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  /** Complete JSON text of the arguments, as the model produced it. */
  arguments: z.string(),
  providerOptions: ProviderOptionsSchema.optional()
})
export type LLMToolCall = z.infer<typeof LLMToolCallSchema>

export const SystemMessageSchema = z.object({ role: z.literal('system'), content: z.string() })
export const UserMessageSchema = z.object({
  role: z.literal('user'),
  content: z.union([z.string(), z.array(z.discriminatedUnion('type', [TextPartSchema, ImagePartSchema]))])
})
export const AssistantMessageSchema = z.object({
  role: z.literal('assistant'),
  /** Reasoning first, then text, in the order the model produced them. */
  content: z.array(z.discriminatedUnion('type', [TextPartSchema, ReasoningPartSchema])).default([]),
  toolCalls: z.array(LLMToolCallSchema).default([])
})
/** The result of one tool call. `content` may carry images (e.g. a screenshot tool). */
export const ToolResultMessageSchema = z.object({
  role: z.literal('tool'),
  toolCallId: z.string().min(1),
  toolName: z.string().min(1),
  content: z.union([z.string(), z.array(z.discriminatedUnion('type', [TextPartSchema, ImagePartSchema]))]),
  isError: z.boolean().optional()
})

export const LLMMessageSchema = z.discriminatedUnion('role', [
  SystemMessageSchema,
  UserMessageSchema,
  AssistantMessageSchema,
  ToolResultMessageSchema
])
export type LLMMessage = z.input<typeof LLMMessageSchema>
export type LLMUserContentPart = z.infer<typeof TextPartSchema> | z.infer<typeof ImagePartSchema>

/** A tool the model may call; we never give the SDK an `execute`, so calls come back to us. */
export const LLMToolDefinitionSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  parameters: ToolParametersSchema
})
export type LLMToolDefinition = z.infer<typeof LLMToolDefinitionSchema>

export const LLMRequestSchema = z.object({
  providerId: z.string().min(1),
  modelId: z.string().min(1),
  messages: z.array(LLMMessageSchema).min(1),
  tools: z.array(LLMToolDefinitionSchema).optional(),
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().min(0).max(1).optional(),
  maxTokens: z.number().int().positive().optional(),
  /**
   * Ask a reasoning model to think (and show it). Unset: the model's default, except that
   * Gemini models marked `reasoning` are asked to include their thoughts.
   */
  reasoning: z
    .object({
      enabled: z.boolean(),
      /** Anthropic and Gemini: thinking token budget. */
      budgetTokens: z.number().int().min(0).optional(),
      /** OpenAI and OpenAI-compatible: reasoning effort. */
      effort: z.enum(['low', 'medium', 'high']).optional()
    })
    .optional(),
  /** Overrides the provider's retry count for this request (rate_limit/server errors only). */
  maxRetries: z.number().int().min(0).max(10).optional(),
  /**
   * Search with the provider's own web search (OpenAI web search, Gemini grounding, Anthropic
   * web search, OpenRouter `:online`) instead of the app's `web_search` tool, which is then not
   * offered. Ignored by models without one (see llmProviderPresenter/nativeSearch.ts).
   */
  nativeWebSearch: z.boolean().optional()
})
export type LLMRequest = z.input<typeof LLMRequestSchema>
export type LLMRequestOptions = z.output<typeof LLMRequestSchema>

// ---------------------------------------------------------------------------------------------
// Stream events coreStream yields. Snake-case field names follow the reference event contract.
// ---------------------------------------------------------------------------------------------

export const LLMErrorCode = z.enum([
  'auth',
  'rate_limit',
  'context_overflow',
  'server',
  'network',
  'invalid_response',
  'invalid_request',
  'aborted'
])
export type LLMErrorCode = z.infer<typeof LLMErrorCode>

/**
 * What went wrong at the provider, as the user is told (each has its own wording and action):
 * rate limits and overload are retried with a visible countdown, auth links to Settings,
 * bad_request carries the provider's own message.
 */
export const ProviderErrorCategory = z.enum([
  'rate_limited',
  'overloaded',
  'server',
  'auth',
  'bad_request',
  'context_too_long',
  'network',
  'timeout',
  /** The stream stayed silent for the provider's idle timeout (a stuck gateway or model). */
  'no_response'
])
export type ProviderErrorCategory = z.infer<typeof ProviderErrorCategory>

export const StopReason = z.enum(['tool_use', 'max_tokens', 'stop_sequence', 'complete', 'error'])
export type StopReason = z.infer<typeof StopReason>

export interface LLMUsage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
  cached_tokens?: number
  cache_write_tokens?: number
  reasoning_tokens?: number
}

export type LLMCoreStreamEvent =
  | { type: 'text'; content: string; provider_options?: ProviderOptions }
  | { type: 'reasoning'; reasoning_content: string; provider_options?: ProviderOptions }
  | {
      type: 'tool_call_start'
      tool_call_id: string
      tool_call_name: string
      provider_options?: ProviderOptions
    }
  | { type: 'tool_call_chunk'; tool_call_id: string; tool_call_arguments_chunk: string }
  | {
      type: 'tool_call_end'
      tool_call_id: string
      /** The complete JSON arguments text. */
      tool_call_arguments_complete: string
      provider_options?: ProviderOptions
    }
  | { type: 'usage'; usage: LLMUsage }
  | { type: 'image_data'; image_data: { data: string; mimeType: string } }
  /** A page the provider's own web search found or the answer cites (http(s) links only). */
  | { type: 'source'; url: string; title: string }
  | {
      type: 'error'
      code: LLMErrorCode
      error_message: string
      /** HTTP status when the provider answered with one. */
      status?: number
      /** Milliseconds the provider asked us to wait (429 and 5xx `Retry-After`). */
      retry_after_ms?: number
      /** Absent only for an abort. */
      category?: ProviderErrorCategory
    }
  /** A failed attempt that will be retried after `delay_ms` (before any output of the request). */
  | {
      type: 'retry'
      attempt: number
      max_retries: number
      delay_ms: number
      category: ProviderErrorCategory
      error_message: string
    }
  | { type: 'stop'; stop_reason: StopReason }

export type LLMCoreStreamEventType = LLMCoreStreamEvent['type']
