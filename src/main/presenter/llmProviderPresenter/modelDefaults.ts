import type { ListedModel, ModelConfig } from '@shared/types/provider'

/** A provider that lists at most this many models gets all of them enabled. */
export const AUTO_ENABLE_LIMIT = 20

/**
 * Which models start enabled when a list is fetched, so that a provider listing hundreds
 * (OpenRouter) does not flood the model picker:
 * - a model the user already has keeps its own setting;
 * - a list of at most AUTO_ENABLE_LIMIT models: every new model is enabled;
 * - a longer list: only the models the provider already had (its preset's) are enabled, and
 *   when none of those is listed, the first AUTO_ENABLE_LIMIT in list order.
 * Everything else is listed but off; the user switches it on in Settings.
 */
export function withDefaultEnablement(listed: ListedModel[], configured: ModelConfig[]): ListedModel[] {
  if (listed.length <= AUTO_ENABLE_LIMIT) return listed
  const mine = new Map(configured.map((m) => [m.id, m]))
  const anyConfiguredListed = listed.some((m) => mine.has(m.id))
  return listed.map((model, index) => {
    const own = mine.get(model.id)
    if (own) return { ...model, enabled: own.enabled }
    return { ...model, enabled: !anyConfiguredListed && index < AUTO_ENABLE_LIMIT }
  })
}

/**
 * The models a provider stores after a fetch: the listed ones (user settings kept), then the
 * ones it had that the API did not list — aliases such as `claude-sonnet-4-5` work without
 * being listed, and the user may still use a model that vanished upstream.
 */
export function mergeFetchedModels(listed: ListedModel[], configured: ModelConfig[]): ModelConfig[] {
  const models: ModelConfig[] = listed.map(({ known: _known, ...model }) => model)
  const seen = new Set(models.map((m) => m.id))
  for (const model of configured) if (!seen.has(model.id)) models.push(model)
  return models
}
