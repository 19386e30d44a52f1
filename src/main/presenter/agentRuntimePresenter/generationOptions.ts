import type { LLMRequest } from '@shared/types/llm'
import type { GenerationSettings } from '@shared/types/session'

/** The request fields a chat's own parameters set (Settings defaults, an assistant, the chat panel). */
export function generationRequestOptions(
  settings: GenerationSettings
): Pick<LLMRequest, 'temperature' | 'topP' | 'maxTokens' | 'reasoning'> {
  return {
    temperature: settings.temperature,
    topP: settings.topP,
    maxTokens: settings.maxTokens,
    ...(settings.reasoningEffort
      ? {
          // Providers take low / medium / high; "minimal" asks for the least there is.
          reasoning: {
            enabled: true,
            effort: settings.reasoningEffort === 'minimal' ? 'low' : settings.reasoningEffort
          }
        }
      : {})
  }
}
