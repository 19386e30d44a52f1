import type { LlmProviderPresenter } from '../llmProviderPresenter'
import type { ModelLimits } from './contextBuilder'

const FALLBACK: ModelLimits = { contextLength: 128_000, maxOutputTokens: 8_192 }

/** A model's context length, output cap and vision from its provider config (defaults when unlisted). */
export function modelLimitsFrom(llm: Pick<LlmProviderPresenter, 'modelsOf'>) {
  return async (providerId: string, modelId: string): Promise<ModelLimits> => {
    const model = llm.modelsOf(providerId)?.find((m) => m.id === modelId)
    return model
      ? { contextLength: model.contextLength, maxOutputTokens: model.maxOutputTokens, vision: model.vision }
      : FALLBACK
  }
}
