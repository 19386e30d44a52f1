import type { LanguageModelUsage, TextStreamPart, ToolSet } from 'ai'
import type { LLMCoreStreamEvent, LLMUsage, ProviderOptions, StopReason } from '@shared/types/llm'
import { safeLink } from '@shared/webSources'
import { classifyError, type ClassifiedError } from './errors'
import { openRouterCitationsOf } from './nativeSearch'

type Part = TextStreamPart<ToolSet>

/**
 * The result of adapting one attempt: either the stream finished on its own, or it failed
 * with `failure` (already emitted unless the caller asked to hold errors back for a retry).
 */
export interface AttemptOutcome {
  failure?: ClassifiedError
  /** True once any content (text, reasoning, tool call, image) was yielded. */
  producedContent: boolean
}

/**
 * The SDK folds a natural end and a stop sequence into `stop`; the raw provider reason tells
 * them apart where the provider says so (Anthropic `stop_sequence`).
 */
export function mapFinishReason(reason: string | undefined, raw?: string): StopReason {
  if (raw === 'stop_sequence') return 'stop_sequence'
  switch (reason) {
    case 'tool-calls':
    case 'tool_calls':
    case 'tool-call':
    case 'tool_use':
      return 'tool_use'
    case 'length':
      return 'max_tokens'
    case 'error':
      return 'error'
    default:
      return 'complete'
  }
}

export function mapUsage(usage: LanguageModelUsage): LLMUsage {
  const prompt = usage.inputTokens ?? 0
  const completion = usage.outputTokens ?? 0
  const mapped: LLMUsage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: usage.totalTokens ?? prompt + completion
  }
  const cached = usage.inputTokenDetails?.cacheReadTokens ?? usage.cachedInputTokens
  if (cached) mapped.cached_tokens = cached
  if (usage.inputTokenDetails?.cacheWriteTokens)
    mapped.cache_write_tokens = usage.inputTokenDetails.cacheWriteTokens
  const reasoning = usage.outputTokenDetails?.reasoningTokens ?? usage.reasoningTokens
  if (reasoning) mapped.reasoning_tokens = reasoning
  return mapped
}

interface PendingToolCall {
  name: string
  args: string
  providerOptions?: ProviderOptions
  ended: boolean
}

/**
 * Turns AI SDK `fullStream` parts into LLMCoreStreamEvents. Errors are not yielded here: the
 * first error (or abort) ends the attempt and is returned in `outcome.failure`, so the caller
 * decides between a retry and reporting it.
 */
export async function* adaptStream(
  parts: AsyncIterable<Part>,
  outcome: AttemptOutcome
): AsyncGenerator<LLMCoreStreamEvent> {
  const toolCalls = new Map<string, PendingToolCall>()
  try {
    for await (const part of parts) {
      switch (part.type) {
        case 'text-delta':
          if (part.text) {
            outcome.producedContent = true
            yield withOptions({ type: 'text', content: part.text }, part.providerMetadata)
          }
          break
        case 'reasoning-delta':
          // An empty delta may carry only a signature (Anthropic); keep it so it round-trips.
          if (part.text || part.providerMetadata) {
            outcome.producedContent = true
            yield withOptions({ type: 'reasoning', reasoning_content: part.text }, part.providerMetadata)
          }
          break
        case 'tool-input-start':
          // The provider's own tools (its web search) ran at the provider: nothing for us to run.
          if (part.providerExecuted) break
          outcome.producedContent = true
          toolCalls.set(part.id, {
            name: part.toolName,
            args: '',
            providerOptions: meta(part.providerMetadata),
            ended: false
          })
          yield withOptions(
            { type: 'tool_call_start', tool_call_id: part.id, tool_call_name: part.toolName },
            part.providerMetadata
          )
          break
        case 'tool-input-delta': {
          const pending = toolCalls.get(part.id)
          if (!pending || !part.delta) break
          pending.args += part.delta
          yield { type: 'tool_call_chunk', tool_call_id: part.id, tool_call_arguments_chunk: part.delta }
          break
        }
        case 'tool-call':
          if (part.providerExecuted) break
          outcome.producedContent = true
          yield* endToolCall(toolCalls, part)
          break
        case 'file':
          if (part.file.mediaType.startsWith('image/')) {
            outcome.producedContent = true
            yield {
              type: 'image_data',
              image_data: { data: part.file.base64, mimeType: part.file.mediaType }
            }
          }
          break
        case 'source':
          if (part.sourceType === 'url') yield* sourceEvent(part.url, part.title)
          break
        case 'finish-step':
          for (const citation of openRouterCitationsOf(part.providerMetadata))
            yield* sourceEvent(citation.url, citation.title)
          break
        case 'finish':
          yield { type: 'usage', usage: mapUsage(part.totalUsage) }
          yield { type: 'stop', stop_reason: mapFinishReason(part.finishReason, part.rawFinishReason) }
          return
        case 'error':
          outcome.failure = classifyError(part.error)
          return
        case 'abort':
          outcome.failure = { code: 'aborted', message: 'The request was aborted' }
          return
        default:
          break
      }
    }
    // The SDK always ends with finish, error or abort; anything else is a cut stream.
    outcome.failure = { code: 'network', message: 'The stream ended without a finish' }
  } catch (error) {
    outcome.failure = classifyError(error)
  }
}

/** A page the provider's search found: http(s) links only, anything else is dropped here. */
function* sourceEvent(url: string, title: string | undefined): Generator<LLMCoreStreamEvent> {
  const link = safeLink(url)
  if (link) yield { type: 'source', url: link.href, title: title ?? '' }
}

function* endToolCall(
  toolCalls: Map<string, PendingToolCall>,
  part: Extract<Part, { type: 'tool-call' }>
): Generator<LLMCoreStreamEvent> {
  let pending = toolCalls.get(part.toolCallId)
  const providerOptions = meta(part.providerMetadata) ?? pending?.providerOptions
  if (!pending) {
    // Some providers deliver a whole call without input-start/delta parts.
    pending = { name: part.toolName, args: '', providerOptions, ended: false }
    toolCalls.set(part.toolCallId, pending)
    yield withOptions(
      { type: 'tool_call_start', tool_call_id: part.toolCallId, tool_call_name: part.toolName },
      providerOptions
    )
  }
  if (pending.ended) return
  pending.ended = true
  // Prefer the model's own text: it is what the model wrote, even if it is not valid JSON.
  const complete = pending.args || JSON.stringify(part.input ?? {})
  if (!pending.args)
    yield { type: 'tool_call_chunk', tool_call_id: part.toolCallId, tool_call_arguments_chunk: complete }
  yield withOptions(
    { type: 'tool_call_end', tool_call_id: part.toolCallId, tool_call_arguments_complete: complete },
    providerOptions
  )
}

function meta(metadata: unknown): ProviderOptions | undefined {
  if (!metadata || typeof metadata !== 'object' || Object.keys(metadata).length === 0) return undefined
  return metadata as ProviderOptions
}

function withOptions<E extends LLMCoreStreamEvent & { provider_options?: ProviderOptions }>(
  event: E,
  metadata: unknown
): E {
  const options = meta(metadata)
  return options ? { ...event, provider_options: options } : event
}
