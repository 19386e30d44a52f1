import type { GenerationPatch } from '@shared/contracts/routes/sessions.routes'
import type { GenerationSettings } from '@shared/types/session'

/** The parameters form's values: text fields, '' for "the model's default". */
export interface GenerationDraft {
  systemPrompt: string
  temperature: string | number
  topP: string | number
  maxTokens: string | number
  reasoningEffort: '' | NonNullable<GenerationSettings['reasoningEffort']>
}

export function toDraft(settings: GenerationSettings): GenerationDraft {
  return {
    systemPrompt: settings.systemPrompt ?? '',
    temperature: settings.temperature ?? '',
    topP: settings.topP ?? '',
    maxTokens: settings.maxTokens ?? '',
    reasoningEffort: settings.reasoningEffort ?? ''
  }
}

/** What changed, as a patch: a cleared field is null (back to the model's default). */
export function generationPatch(draft: GenerationDraft, current: GenerationSettings): GenerationPatch {
  const next: GenerationPatch = {
    systemPrompt: draft.systemPrompt.trim() ? draft.systemPrompt : null,
    temperature: numberOrNull(draft.temperature),
    topP: numberOrNull(draft.topP),
    maxTokens: numberOrNull(draft.maxTokens),
    reasoningEffort: draft.reasoningEffort || null
  }
  const patch: GenerationPatch = {}
  for (const key of Object.keys(next) as Array<keyof GenerationPatch>) {
    if ((next[key] ?? undefined) !== current[key]) Object.assign(patch, { [key]: next[key] })
  }
  return patch
}

/** The settings a patch leads to (the new-chat composer keeps them until the first send). */
export function applyPatch(current: GenerationSettings, patch: GenerationPatch): GenerationSettings {
  const out: Record<string, unknown> = { ...current }
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key]
    else if (value !== undefined) out[key] = value
  }
  return out as GenerationSettings
}

function numberOrNull(value: string | number): number | null {
  if (value === '' || value === null) return null
  const n = Number(value)
  return Number.isFinite(n) ? n : null
}
