import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
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
import { providersDefaultChanged, providersListChanged } from '@shared/contracts/events/providers.events'
import type {
  DefaultModel,
  ListedModel,
  ModelConfig,
  ModelFetchReport,
  ProviderAddInput,
  ProviderPatch,
  ProviderPreset,
  ProviderView,
  VerifyResult
} from '@shared/types/provider'
import { useBridge } from '@renderer/api/bridge'
import { useLoadState } from './lib/loadState'
import { plain } from './lib/plain'

/** Providers as main reports them; keys only ever arrive masked. */
export const useProvidersStore = defineStore('providers', () => {
  const providers = ref<ProviderView[]>([])
  const presets = ref<ProviderPreset[]>([])
  const defaultModel = ref<DefaultModel>(null)
  const { error, loaded, track } = useLoadState()
  const unsubscribers: Array<() => void> = []

  const byId = computed(() => new Map(providers.value.map((p) => [p.id, p])))

  function subscribe(): void {
    if (unsubscribers.length) return
    const bridge = useBridge()
    unsubscribers.push(
      bridge.on(providersListChanged, ({ providers: next }) => {
        providers.value = next
      }),
      bridge.on(providersDefaultChanged, ({ defaultModel: next }) => {
        defaultModel.value = next
      })
    )
  }

  async function load(): Promise<void> {
    subscribe()
    await track(async () => {
      const bridge = useBridge()
      const [list, presetList] = await Promise.all([
        bridge.call(providersList, {}),
        bridge.call(providersPresets, {})
      ])
      providers.value = list.providers
      defaultModel.value = list.defaultModel
      presets.value = presetList.presets
    })
  }

  function replace(view: ProviderView): ProviderView {
    const index = providers.value.findIndex((p) => p.id === view.id)
    if (index === -1) providers.value = [...providers.value, view]
    else providers.value = providers.value.map((p) => (p.id === view.id ? view : p))
    return view
  }

  /** Adds a provider; `modelFetch` says what the automatic model list fetch found. */
  async function add(
    input: ProviderAddInput
  ): Promise<{ provider: ProviderView; modelFetch: ModelFetchReport }> {
    const added = await useBridge().call(providersAdd, plain({ provider: input }))
    return { provider: replace(added.provider), modelFetch: added.modelFetch ?? null }
  }

  async function update(id: string, patch: ProviderPatch): Promise<ProviderView> {
    return replace((await useBridge().call(providersUpdate, plain({ id, patch }))).provider)
  }

  async function remove(id: string): Promise<void> {
    await useBridge().call(providersRemove, plain({ id }))
    providers.value = providers.value.filter((p) => p.id !== id)
    if (defaultModel.value?.providerId === id) defaultModel.value = null
  }

  function verify(id: string, unsaved: { apiKey?: string; baseUrl?: string } = {}): Promise<VerifyResult> {
    return useBridge().call(providersVerify, plain({ id, ...unsaved }))
  }

  /**
   * Asks the provider for its models and stores them, keeping what the user already set for
   * models it knew; models that disappeared upstream are kept (the user may still use them).
   */
  async function fetchModels(id: string): Promise<ListedModel[]> {
    const { models } = await useBridge().call(providersListModels, plain({ id }))
    const current = byId.value.get(id)?.models ?? []
    const known = new Map(current.map((m) => [m.id, m]))
    const merged: ModelConfig[] = models.map(({ known: _known, ...model }) => known.get(model.id) ?? model)
    for (const model of current) if (!merged.some((m) => m.id === model.id)) merged.push(model)
    await update(id, { models: merged })
    return models
  }

  async function setDefault(next: DefaultModel): Promise<void> {
    defaultModel.value = (
      await useBridge().call(providersSetDefault, plain({ defaultModel: next }))
    ).defaultModel
  }

  function dispose(): void {
    unsubscribers.splice(0).forEach((off) => off())
  }

  return {
    providers,
    presets,
    defaultModel,
    error,
    loaded,
    byId,
    load,
    add,
    update,
    remove,
    verify,
    fetchModels,
    setDefault,
    dispose
  }
})
