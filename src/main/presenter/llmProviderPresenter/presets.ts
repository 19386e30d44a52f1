import type { ModelConfigInput, ProviderKind, ProviderPreset } from '@shared/types/provider'
import { ModelConfigSchema } from '@shared/types/provider'
import { knownModel } from './knownModels'

function models(ids: string[]): ProviderPreset['models'] {
  return ids.map((id) =>
    ModelConfigSchema.parse(knownModel(id) ?? ({ id, name: id } satisfies ModelConfigInput))
  )
}

function preset(
  presetId: string,
  kind: ProviderKind,
  name: string,
  baseUrl: string,
  modelIds: string[],
  requiresApiKey = true
): ProviderPreset {
  return { presetId, kind, name, baseUrl, requiresApiKey, models: models(modelIds) }
}

/**
 * Providers the user can add with one click. Base URLs are the ones the AI SDK providers
 * expect (OpenAI-style ones end in /v1; Gemini's in /v1beta).
 */
export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  preset('openai', 'openai', 'OpenAI', 'https://api.openai.com/v1', [
    'gpt-4.1',
    'gpt-4.1-mini',
    'gpt-4o',
    'o4-mini'
  ]),
  preset('anthropic', 'anthropic', 'Anthropic', 'https://api.anthropic.com/v1', [
    'claude-sonnet-4-5',
    'claude-opus-4-1',
    'claude-3-5-haiku-latest'
  ]),
  preset('gemini', 'gemini', 'Google Gemini', 'https://generativelanguage.googleapis.com/v1beta', [
    'gemini-2.5-pro',
    'gemini-2.5-flash'
  ]),
  preset('deepseek', 'deepseek', 'DeepSeek', 'https://api.deepseek.com/v1', [
    'deepseek-chat',
    'deepseek-reasoner'
  ]),
  preset('ollama', 'ollama', 'Ollama', 'http://localhost:11434', [], false),
  preset('lmstudio', 'openai-compatible', 'LM Studio', 'http://localhost:1234/v1', [], false),
  preset('openrouter', 'openai-compatible', 'OpenRouter', 'https://openrouter.ai/api/v1', [
    'openai/gpt-4.1',
    'anthropic/claude-sonnet-4.5',
    'deepseek/deepseek-r1'
  ]),
  preset('siliconflow', 'openai-compatible', 'SiliconFlow', 'https://api.siliconflow.cn/v1', [
    'deepseek-ai/DeepSeek-V3',
    'deepseek-ai/DeepSeek-R1',
    'Qwen/Qwen3-235B-A22B'
  ]),
  // Groq, Mistral and xAI through their AI SDK packages; the rest on their OpenAI-compatible endpoints.
  preset('groq', 'groq', 'Groq', 'https://api.groq.com/openai/v1', [
    'llama-3.3-70b-versatile',
    'openai/gpt-oss-120b'
  ]),
  preset('mistral', 'mistral', 'Mistral', 'https://api.mistral.ai/v1', [
    'mistral-large-latest',
    'mistral-small-latest'
  ]),
  preset('xai', 'xai', 'xAI', 'https://api.x.ai/v1', ['grok-4', 'grok-3-mini']),
  preset(
    'qwen',
    'openai-compatible',
    'Qwen (DashScope)',
    'https://dashscope.aliyuncs.com/compatible-mode/v1',
    ['qwen-max', 'qwen-plus', 'qwen-turbo']
  ),
  preset('zhipu', 'openai-compatible', 'Zhipu GLM', 'https://open.bigmodel.cn/api/paas/v4', [
    'glm-4.5',
    'glm-4.5-air'
  ]),
  preset('moonshot', 'openai-compatible', 'Moonshot (Kimi)', 'https://api.moonshot.cn/v1', [
    'kimi-k2-0905-preview',
    'moonshot-v1-128k'
  ]),
  preset('minimax', 'openai-compatible', 'MiniMax', 'https://api.minimax.io/v1', ['MiniMax-M1']),
  // Ark model ids are the user's own endpoint or model ids: fetched from the API or typed in.
  preset(
    'doubao',
    'openai-compatible',
    'Doubao (Volcengine Ark)',
    'https://ark.cn-beijing.volces.com/api/v3',
    []
  ),
  // The user's resource and deployments: the URL is edited (or built from the resource name)
  // and each model id is a deployment name.
  preset('azure', 'azure', 'Azure OpenAI', 'https://your-resource.openai.azure.com/openai', []),
  // A googleapis.com URL means Google's endpoint, built from project and location.
  preset('vertex', 'vertex', 'Google Vertex AI', 'https://aiplatform.googleapis.com', [
    'gemini-2.5-pro',
    'gemini-2.5-flash'
  ]),
  // An amazonaws.com URL means AWS's endpoint for the region in the settings.
  preset('bedrock', 'bedrock', 'Amazon Bedrock', 'https://bedrock-runtime.us-east-1.amazonaws.com', [
    'us.anthropic.claude-sonnet-4-20250514-v1:0',
    'amazon.nova-pro-v1:0'
  ]),
  preset('custom', 'openai-compatible', 'Custom (OpenAI-compatible)', 'http://localhost:8000/v1', [])
]

export function findPreset(presetId: string): ProviderPreset | undefined {
  return PROVIDER_PRESETS.find((p) => p.presetId === presetId)
}

/** Local servers run without a key; everything else needs one. */
export function kindRequiresApiKey(kind: ProviderKind, baseUrl: string): boolean {
  if (kind === 'ollama') return false
  try {
    const host = new URL(baseUrl).hostname
    return !(host === 'localhost' || host === '127.0.0.1' || host === '::1' || host === '[::1]')
  } catch {
    return true
  }
}
