import { z } from 'zod'
import type { MemoryPresenter, RememberInput } from '../memoryPresenter'
import type { ConfigPresenter } from '../configPresenter'
import type { LlmProviderPresenter } from '../llmProviderPresenter'
import type { AgentToolRuntimePort, MemoryPort } from '../toolPresenter/runtimePorts'

/** Every session talks to the one built-in agent until agents become configurable. */
export const DEFAULT_AGENT_ID = 'deepchat'

/** Memory scoped to the agent a session belongs to (subagents share their parent's agent). */
export function createMemoryPort(
  memory: MemoryPresenter,
  agentOf: (sessionId: string) => string = () => DEFAULT_AGENT_ID
): MemoryPort {
  return {
    isEnabled: (sessionId) => memory.isEnabled(agentOf(sessionId)),
    remember: (sessionId, input) => memory.remember(agentOf(sessionId), input as RememberInput, sessionId),
    recall: (sessionId, query, limit) => memory.recall(agentOf(sessionId), query, limit),
    forget: (sessionId, memoryId) => memory.forget(agentOf(sessionId), memoryId)
  }
}

/** The model `image_generate` uses (config document `imageGeneration`); null turns the tool off. */
export const ImageGenerationSetting = z.object({
  model: z
    .object({ providerId: z.string().min(1).max(64), modelId: z.string().min(1).max(200) })
    .nullable()
    .default(null)
})
export const IMAGE_GENERATION_KEY = 'imageGeneration'

export function createImagePort(
  config: Pick<ConfigPresenter, 'getDocument'>,
  llm: Pick<LlmProviderPresenter, 'generateImages'>
): Required<Pick<AgentToolRuntimePort, 'imageModelFor' | 'generateImage'>> {
  const model = () => config.getDocument(IMAGE_GENERATION_KEY, ImageGenerationSetting, { model: null }).model
  return {
    imageModelFor: () => model(),
    async generateImage(_sessionId, request, signal) {
      const chosen = model()
      if (!chosen)
        throw Object.assign(new Error('No image generation model is configured.'), {
          code: 'image_model_unavailable'
        })
      return llm.generateImages({ ...chosen, ...request }, signal)
    }
  }
}
