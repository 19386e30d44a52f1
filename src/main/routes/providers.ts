import {
  providersAdd,
  providersList,
  providersListModels,
  providersPresets,
  providersRemove,
  providersSetDefault,
  providersUpdate,
  providersVerify
} from '@shared/contracts/routes/providers.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerProviderRoutes(
  router: Router,
  { llmProviders }: Pick<Presenters, 'llmProviders'>
): void {
  router.handle(providersPresets, () => ({ presets: [...llmProviders.presets()] }))
  router.handle(providersList, async () => ({
    providers: await llmProviders.listProviders(),
    defaultModel: llmProviders.getDefaultModel()
  }))
  router.handle(providersAdd, ({ provider }) => llmProviders.addProviderWithModels(provider))
  router.handle(providersUpdate, async ({ id, patch }) => ({
    provider: await llmProviders.updateProvider(id, patch)
  }))
  router.handle(providersRemove, async ({ id }) => ({ removed: await llmProviders.removeProvider(id) }))
  router.handle(providersVerify, (input) => llmProviders.verify(input))
  router.handle(providersListModels, async ({ id }) => ({ models: await llmProviders.listModels(id) }))
  router.handle(providersSetDefault, ({ defaultModel }) => ({
    defaultModel: llmProviders.setDefaultModel(defaultModel)
  }))
}
