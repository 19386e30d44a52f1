import { jsonSchema, tool, type JSONValue, type ModelMessage, type ToolSet } from 'ai'
import { jsonrepair } from 'jsonrepair'
import type { LLMMessage, LLMToolDefinition, LLMUserContentPart, ProviderOptions } from '@shared/types/llm'
import { LLMMessageSchema } from '@shared/types/llm'
import { trimImages } from './imageLimits'

/**
 * Leading system messages become the SDK's `system` option (each provider has its own slot
 * for it); the rest are mapped one by one.
 */
export function toModelPrompt(
  messages: LLMMessage[],
  options: { imagesInToolResults: boolean; maxImages?: number } = { imagesInToolResults: true }
): { system?: string; messages: ModelMessage[] } {
  let leading = 0
  while (leading < messages.length && messages[leading].role === 'system') leading++
  const system = messages
    .slice(0, leading)
    .map((m) => m.content as string)
    .join('\n\n')
  const rest =
    options.maxImages === undefined
      ? messages.slice(leading)
      : trimImages(messages.slice(leading), options.maxImages)
  const mapped = options.imagesInToolResults ? rest : moveToolImagesToUserMessages(rest)
  return { system: system || undefined, messages: toModelMessages(mapped) }
}

/**
 * Chat completions has no images in `role: tool` messages (the SDK would send the base64 as
 * text). The images go in one user message right after the run of tool results instead, and
 * each tool result says where they went.
 */
export function moveToolImagesToUserMessages(messages: LLMMessage[]): LLMMessage[] {
  const out: LLMMessage[] = []
  let carried: LLMUserContentPart[] = []
  const flush = () => {
    if (carried.length) out.push({ role: 'user', content: carried })
    carried = []
  }
  for (const message of messages) {
    if (message.role !== 'tool') flush()
    if (message.role !== 'tool' || typeof message.content === 'string') {
      out.push(message)
      continue
    }
    const images = message.content.filter((p) => p.type === 'image')
    if (images.length === 0) {
      out.push(message)
      continue
    }
    const text = message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n')
    const note = `[${images.length} image${images.length > 1 ? 's' : ''} from this result follow${images.length > 1 ? '' : 's'} in the next message]`
    out.push({ ...message, content: text ? `${text}\n${note}` : note })
    carried.push(
      { type: 'text', text: `Images returned by ${message.toolName} (call ${message.toolCallId}):` },
      ...images
    )
  }
  flush()
  return out
}

/**
 * Provider-neutral messages → AI SDK messages. The SDK then writes each provider's format
 * (OpenAI `tool_calls` + `role: tool`, Anthropic `tool_use`/`tool_result` blocks, Gemini
 * `functionCall`/`functionResponse`), including images and round-tripped signatures.
 */
export function toModelMessages(messages: LLMMessage[]): ModelMessage[] {
  return messages.map((input) => {
    const message = LLMMessageSchema.parse(input)
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content }
      case 'user':
        return {
          role: 'user',
          content: typeof message.content === 'string' ? message.content : message.content.map(userPart)
        }
      case 'assistant':
        return {
          role: 'assistant',
          content: [
            ...message.content.map((part) =>
              part.type === 'text'
                ? { type: 'text' as const, text: part.text }
                : {
                    type: 'reasoning' as const,
                    text: part.text,
                    providerOptions: toSdkProviderOptions(part.providerOptions)
                  }
            ),
            ...message.toolCalls.map((call) => ({
              type: 'tool-call' as const,
              toolCallId: call.id,
              toolName: call.name,
              input: parseArguments(call.arguments),
              providerOptions: toSdkProviderOptions(call.providerOptions)
            }))
          ]
        }
      case 'tool':
        return {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: message.toolCallId,
              toolName: message.toolName,
              output: toolOutput(message.content, message.isError === true)
            }
          ]
        }
    }
  })
}

function userPart(part: LLMUserContentPart) {
  return part.type === 'text'
    ? { type: 'text' as const, text: part.text }
    : { type: 'image' as const, image: part.data, mediaType: part.mimeType }
}

function toolOutput(content: string | LLMUserContentPart[], isError: boolean) {
  if (typeof content === 'string') {
    return isError
      ? { type: 'error-text' as const, value: content }
      : { type: 'text' as const, value: content }
  }
  return {
    type: 'content' as const,
    value: content.map((part) =>
      part.type === 'text'
        ? { type: 'text' as const, text: part.text }
        : { type: 'image-data' as const, data: part.data, mediaType: part.mimeType }
    )
  }
}

/** Arguments the model wrote are sent back as an object; broken JSON is repaired, not fatal. */
function parseArguments(text: string): unknown {
  if (!text.trim()) return {}
  try {
    return JSON.parse(text)
  } catch {
    try {
      return JSON.parse(jsonrepair(text))
    } catch {
      return {}
    }
  }
}

type JsonObject = { [key: string]: JSONValue }
/** The SDK's provider options: per provider, a JSON object. */
export type SdkProviderOptions = Record<string, JsonObject>

/**
 * Our provider options as the SDK types them. They came from JSON (the SDK's own metadata,
 * stored and read back); what JSON cannot hold is dropped, as sending them would drop it too.
 */
export function toSdkProviderOptions(options: ProviderOptions | undefined): SdkProviderOptions | undefined {
  if (!options) return undefined
  const out: SdkProviderOptions = {}
  for (const [provider, values] of Object.entries(options)) out[provider] = jsonObject(values)
  return out
}

function jsonObject(value: object): JsonObject {
  const out: JsonObject = {}
  for (const [key, entry] of Object.entries(value)) {
    const json = toJson(entry)
    if (json !== undefined) out[key] = json
  }
  return out
}

/** `value` as JSON.stringify would see it: undefined for what it leaves out, null for what it cannot hold. */
function toJson(value: unknown): JSONValue | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (Array.isArray(value)) return value.map((item) => toJson(item) ?? null)
  if (typeof value === 'object') return jsonObject(value)
  return undefined
}

/** Tools without `execute`: the SDK returns the calls to us instead of running them. */
export function toToolSet(tools: LLMToolDefinition[] | undefined): ToolSet | undefined {
  if (!tools?.length) return undefined
  const set: ToolSet = {}
  for (const definition of tools) {
    set[definition.name] = tool({
      description: definition.description,
      inputSchema: jsonSchema(definition.parameters as Parameters<typeof jsonSchema>[0])
    })
  }
  return set
}
