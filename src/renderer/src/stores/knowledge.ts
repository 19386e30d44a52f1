import { defineStore } from 'pinia'
import { ref } from 'vue'
import {
  knowledgeAddSources,
  knowledgeCancel,
  knowledgeChangeEmbedding,
  knowledgeChooseFiles,
  knowledgeCreate,
  knowledgeGetSessionBases,
  knowledgeList,
  knowledgeListEmbeddingProviders,
  knowledgePickFiles,
  knowledgeReadSource,
  knowledgeReindex,
  knowledgeRemove,
  knowledgeRemoveSource,
  knowledgeSearch,
  knowledgeSetSessionBases
} from '@shared/contracts/routes/knowledge.routes'
import {
  knowledgeBaseChanged,
  knowledgeProgressChanged,
  knowledgeSessionBasesChanged
} from '@shared/contracts/events/knowledge.events'
import type {
  EmbeddingModelRef,
  EmbeddingProviderView,
  KnowledgeBaseView,
  KnowledgeHit,
  KnowledgeLocation,
  KnowledgeSourceText
} from '@shared/types/knowledge'
import { useBridge } from '@renderer/api/bridge'
import { foldProgress, pruneProgress, type ShownProgress } from './lib/knowledgeProgress'

/** A file or folder the user picked for a base: its path to show and the pick token main issued. */
export interface PickedSource {
  kind: 'file' | 'folder'
  path: string
  token: string
}

/**
 * Knowledge bases (Settings › Knowledge) and which of them each chat searches. Progress events
 * fold into one bar per base (`lib/knowledgeProgress.ts`); a change announced by main re-reads
 * the list once per burst.
 */
export const useKnowledgeStore = defineStore('knowledge', () => {
  const bases = ref<KnowledgeBaseView[]>([])
  const progress = ref<Record<string, ShownProgress>>({})
  const embeddingProviders = ref<EmbeddingProviderView[]>([])
  /** The bases of each chat read so far, by session id. */
  const sessionBases = ref<Record<string, string[]>>({})
  const loaded = ref(false)
  const unsubscribers: Array<() => void> = []
  let refreshTimer: ReturnType<typeof setTimeout> | undefined

  function subscribe(): void {
    if (unsubscribers.length) return
    const bridge = useBridge()
    unsubscribers.push(
      bridge.on(knowledgeProgressChanged, ({ progress: next }) => {
        progress.value = foldProgress(progress.value, next)
      }),
      bridge.on(knowledgeBaseChanged, () => {
        clearTimeout(refreshTimer)
        refreshTimer = setTimeout(() => void refresh().catch(() => undefined), 100)
      }),
      bridge.on(knowledgeSessionBasesChanged, ({ sessionId, baseIds }) => {
        sessionBases.value = { ...sessionBases.value, [sessionId]: baseIds }
      })
    )
  }

  async function refresh(): Promise<KnowledgeBaseView[]> {
    bases.value = (await useBridge().call(knowledgeList, {})).bases
    progress.value = pruneProgress(progress.value, bases.value)
    loaded.value = true
    return bases.value
  }

  async function load(): Promise<KnowledgeBaseView[]> {
    subscribe()
    return refresh()
  }

  async function loadEmbeddingProviders(): Promise<EmbeddingProviderView[]> {
    embeddingProviders.value = (await useBridge().call(knowledgeListEmbeddingProviders, {})).providers
    return embeddingProviders.value
  }

  /** Puts a base's new view in the list (or adds it). */
  function replace(base: KnowledgeBaseView): KnowledgeBaseView {
    bases.value = bases.value.some((b) => b.id === base.id)
      ? bases.value.map((b) => (b.id === base.id ? base : b))
      : [...bases.value, base]
    return base
  }

  const create = async (name: string, sources: PickedSource[], embedding: EmbeddingModelRef) =>
    replace(
      (
        await useBridge().call(knowledgeCreate, {
          name,
          sources: sources.map((s) => s.token),
          embedding: { ...embedding }
        })
      ).base
    )

  const addSources = async (baseId: string, sources: PickedSource[]) =>
    replace(
      (await useBridge().call(knowledgeAddSources, { baseId, sources: sources.map((s) => s.token) })).base
    )

  const removeSource = async (baseId: string, sourceId: string) =>
    replace((await useBridge().call(knowledgeRemoveSource, { baseId, sourceId })).base)

  const reindex = async (baseId: string, full = false) =>
    replace((await useBridge().call(knowledgeReindex, { baseId, full })).base)

  const cancel = async (baseId: string) => replace((await useBridge().call(knowledgeCancel, { baseId })).base)

  /** Re-embeds every chunk with another model: only ever on the user's explicit choice. */
  const changeEmbedding = async (baseId: string, embedding: EmbeddingModelRef) =>
    replace(
      (
        await useBridge().call(knowledgeChangeEmbedding, {
          baseId,
          embedding: { ...embedding },
          reembed: true
        })
      ).base
    )

  async function remove(baseId: string): Promise<void> {
    await useBridge().call(knowledgeRemove, { baseId })
    bases.value = bases.value.filter((b) => b.id !== baseId)
    progress.value = pruneProgress(progress.value, bases.value)
  }

  /** The hits, and a warning when only the full-text half could run (the embedding provider is down). */
  async function search(
    baseIds: string[],
    query: string,
    topK?: number
  ): Promise<{ hits: KnowledgeHit[]; warning: string | null }> {
    const result = await useBridge().call(knowledgeSearch, {
      baseIds: [...baseIds],
      query,
      topK,
      mode: 'hybrid'
    })
    return { hits: result.hits, warning: result.warning ?? null }
  }

  function readSource(
    baseId: string,
    path: string,
    location: KnowledgeLocation
  ): Promise<KnowledgeSourceText> {
    return useBridge().call(knowledgeReadSource, { baseId, path, location: structuredClone(location) })
  }

  /** The desktop app's file dialog: the picked files, or null where there is none (the browser host). */
  async function pickFiles(title: string): Promise<PickedSource[] | null> {
    const result = await useBridge().call(knowledgePickFiles, { title })
    if (!result.supported) return null
    return result.files.map((f) => ({ kind: 'file', path: f.path, token: f.token }))
  }

  /** Typed paths of files, as picks; `refused` names each path that is not a readable file. */
  async function chooseFiles(paths: string[]) {
    const result = await useBridge().call(knowledgeChooseFiles, { paths })
    return {
      files: result.files.map((f): PickedSource => ({ kind: 'file', path: f.path, token: f.token })),
      refused: result.refused
    }
  }

  async function loadSessionBases(sessionId: string): Promise<string[]> {
    subscribe()
    const { baseIds } = await useBridge().call(knowledgeGetSessionBases, { sessionId })
    sessionBases.value = { ...sessionBases.value, [sessionId]: baseIds }
    return baseIds
  }

  async function setSessionBases(sessionId: string, baseIds: string[]): Promise<string[]> {
    const result = await useBridge().call(knowledgeSetSessionBases, { sessionId, baseIds: [...baseIds] })
    sessionBases.value = { ...sessionBases.value, [sessionId]: result.baseIds }
    return result.baseIds
  }

  function dispose(): void {
    clearTimeout(refreshTimer)
    unsubscribers.splice(0).forEach((off) => off())
  }

  return {
    bases,
    progress,
    embeddingProviders,
    sessionBases,
    loaded,
    load,
    refresh,
    loadEmbeddingProviders,
    create,
    addSources,
    removeSource,
    reindex,
    cancel,
    changeEmbedding,
    remove,
    search,
    readSource,
    pickFiles,
    chooseFiles,
    loadSessionBases,
    setSessionBases,
    dispose
  }
})
