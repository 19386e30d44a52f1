import type { ModelConfigInput } from '@shared/types/provider'

/**
 * What we know about popular models that provider model lists do not say (context length,
 * vision, reasoning). Matched by exact id, then by the id without an `org/` prefix (or
 * Bedrock's `us.anthropic.` region and vendor prefix), then by the longest known prefix (so
 * `gpt-4o-2024-08-06` inherits `gpt-4o`).
 */
const KNOWN: ModelConfigInput[] = [
  { id: 'gpt-4.1', name: 'GPT-4.1', contextLength: 1_047_576, maxOutputTokens: 32_768, vision: true },
  {
    id: 'gpt-4.1-mini',
    name: 'GPT-4.1 mini',
    contextLength: 1_047_576,
    maxOutputTokens: 32_768,
    vision: true
  },
  { id: 'gpt-4o', name: 'GPT-4o', contextLength: 128_000, maxOutputTokens: 16_384, vision: true },
  { id: 'gpt-4o-mini', name: 'GPT-4o mini', contextLength: 128_000, maxOutputTokens: 16_384, vision: true },
  {
    id: 'o4-mini',
    name: 'o4-mini',
    contextLength: 200_000,
    maxOutputTokens: 100_000,
    vision: true,
    reasoning: true
  },
  { id: 'o3', name: 'o3', contextLength: 200_000, maxOutputTokens: 100_000, vision: true, reasoning: true },
  {
    id: 'claude-sonnet-4-5',
    name: 'Claude Sonnet 4.5',
    contextLength: 200_000,
    maxOutputTokens: 64_000,
    vision: true,
    reasoning: true
  },
  {
    id: 'claude-sonnet-4.5',
    name: 'Claude Sonnet 4.5',
    contextLength: 200_000,
    maxOutputTokens: 64_000,
    vision: true,
    reasoning: true
  },
  {
    id: 'claude-sonnet-4',
    name: 'Claude Sonnet 4',
    contextLength: 200_000,
    maxOutputTokens: 64_000,
    vision: true,
    reasoning: true
  },
  {
    id: 'claude-opus-4-1',
    name: 'Claude Opus 4.1',
    contextLength: 200_000,
    maxOutputTokens: 32_000,
    vision: true,
    reasoning: true
  },
  {
    id: 'claude-3-5-haiku',
    name: 'Claude 3.5 Haiku',
    contextLength: 200_000,
    maxOutputTokens: 8_192,
    vision: true
  },
  {
    id: 'gemini-2.5-pro',
    name: 'Gemini 2.5 Pro',
    contextLength: 1_048_576,
    maxOutputTokens: 65_536,
    vision: true,
    reasoning: true
  },
  {
    id: 'gemini-2.5-flash',
    name: 'Gemini 2.5 Flash',
    contextLength: 1_048_576,
    maxOutputTokens: 65_536,
    vision: true,
    reasoning: true
  },
  { id: 'deepseek-chat', name: 'DeepSeek V3', contextLength: 128_000, maxOutputTokens: 8_192 },
  {
    id: 'deepseek-reasoner',
    name: 'DeepSeek R1',
    contextLength: 128_000,
    maxOutputTokens: 64_000,
    reasoning: true,
    toolCalling: true
  },
  {
    id: 'deepseek-r1',
    name: 'DeepSeek R1',
    contextLength: 128_000,
    maxOutputTokens: 64_000,
    reasoning: true
  },
  { id: 'deepseek-v3', name: 'DeepSeek V3', contextLength: 128_000, maxOutputTokens: 8_192 },
  { id: 'qwen3', name: 'Qwen3', contextLength: 131_072, maxOutputTokens: 8_192, reasoning: true },
  { id: 'llama3.1', name: 'Llama 3.1', contextLength: 131_072, maxOutputTokens: 4_096 },
  { id: 'llama3.2', name: 'Llama 3.2', contextLength: 131_072, maxOutputTokens: 4_096 }
]

const BY_ID = new Map(KNOWN.map((m) => [m.id.toLowerCase(), m]))
// Bedrock ids: an optional cross-region prefix, then the vendor (`eu.anthropic.claude-…`).
const BEDROCK_PREFIX =
  /^(?:(?:us|eu|apac|jp|au|ca|us-gov|global)\.)?(?:anthropic|amazon|meta|mistral|cohere|ai21|deepseek|openai|qwen|writer)\./

export function knownModel(id: string): ModelConfigInput | undefined {
  const lower = id.toLowerCase()
  const bare = (lower.includes('/') ? lower.slice(lower.lastIndexOf('/') + 1) : lower).replace(
    BEDROCK_PREFIX,
    ''
  )
  const exact = BY_ID.get(lower) ?? BY_ID.get(bare)
  if (exact) return { ...exact, id }
  let best: ModelConfigInput | undefined
  for (const [knownId, meta] of BY_ID) {
    if (
      (bare.startsWith(knownId + '-') || bare.startsWith(knownId + ':')) &&
      knownId.length > (best?.id.length ?? 0)
    ) {
      best = meta
    }
  }
  return best ? { ...best, id, name: id } : undefined
}
