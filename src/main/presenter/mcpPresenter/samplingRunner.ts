import type { LLMCoreStreamEvent, LLMMessage, LLMRequest } from '@shared/types/llm'
import type { SamplingModelRunner } from './interactionBroker'

/** The part of llmProviderPresenter sampling needs. */
export interface SamplingLlm {
  coreStream(request: LLMRequest, signal: AbortSignal): AsyncGenerator<LLMCoreStreamEvent>
  getDefaultModel(): { providerId: string; modelId: string } | null
}

const STOP_REASONS: Record<string, string> = {
  complete: 'endTurn',
  max_tokens: 'maxTokens',
  stop_sequence: 'stopSequence'
}

/** Runs an approved sampling request on the model the user picked (or the default model). */
export function createCoreStreamSampler(llm: SamplingLlm): SamplingModelRunner {
  return {
    async createMessage(input) {
      const fallback = llm.getDefaultModel()
      const providerId = input.providerId ?? fallback?.providerId
      const modelId = input.modelId ?? fallback?.modelId
      if (!providerId || !modelId) throw new Error('No model was chosen and no default model is set')
      const messages: LLMMessage[] = []
      if (input.systemPrompt) messages.push({ role: 'system', content: input.systemPrompt })
      for (const m of input.messages) {
        if (m.role === 'assistant')
          messages.push({ role: 'assistant', content: [{ type: 'text', text: m.text ?? '' }] })
        else {
          const parts: (
            { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string }
          )[] = []
          if (m.text) parts.push({ type: 'text', text: m.text })
          if (m.image) parts.push({ type: 'image', ...m.image })
          messages.push({ role: 'user', content: parts })
        }
      }
      let text = ''
      let stopReason = 'endTurn'
      for await (const event of llm.coreStream(
        { providerId, modelId, messages, maxTokens: input.maxTokens },
        input.signal
      )) {
        if (event.type === 'text') text += event.content
        else if (event.type === 'error') throw new Error(event.error_message)
        else if (event.type === 'stop') stopReason = STOP_REASONS[event.stop_reason] ?? 'endTurn'
      }
      return { text, model: `${providerId}/${modelId}`, stopReason }
    }
  }
}
