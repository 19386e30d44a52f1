import { existsSync, lstatSync } from 'node:fs'
import {
  knowledgeBaseChanged,
  knowledgeProgressChanged,
  knowledgeSessionBasesChanged
} from '@shared/contracts/events/knowledge.events'
import { AppError } from '@shared/errors'
import { isPickToken } from '@shared/types/pickedPath'
import {
  EmbeddingProviderKind,
  KNOWLEDGE_LIMITS,
  type EmbeddingModelRef,
  type EmbeddingProviderView,
  type KnowledgeBaseView,
  type KnowledgeHit,
  type KnowledgeLocation,
  type KnowledgeSearchMode,
  type KnowledgeSourceText
} from '@shared/types/knowledge'
import type { StoredProvider } from '@shared/types/provider'
import type { EventSink } from '../../bridge/events'
import type { Db } from '../sqlitePresenter'
import { BATCH_SIZE, embedTexts, type EmbeddingTarget } from './embeddings'
import { KnowledgeIndexer } from './indexer'
import { FilePicks } from './filePicks'
import { insideAny } from './fileScan'
import { rankBase, topHits } from './search'
import { readSourceText } from './sourceText'
import { KnowledgeStore, type BaseRow } from './store'
import { SourceWatcher } from './watcher'

/** A search's query embedding: someone is waiting, so one retry and a short deadline. */
const QUERY_EMBEDDING = { maxRetries: 1, timeoutMs: 15_000 }

/** Models worth suggesting per provider kind (any model id the provider serves may be typed). */
const SUGGESTED_MODELS: Record<EmbeddingProviderKind, string[]> = {
  openai: ['text-embedding-3-small', 'text-embedding-3-large'],
  'openai-compatible': ['text-embedding-3-small', 'BAAI/bge-m3'],
  gemini: ['gemini-embedding-001', 'text-embedding-004'],
  ollama: ['nomic-embed-text', 'mxbai-embed-large', 'bge-m3'],
  mistral: ['mistral-embed']
}

export interface KnowledgeDeps {
  db: Db
  transaction: <T>(fn: () => T) => T
  /** The user's providers and their keys (the provider store; keys never leave this presenter). */
  providers: { all(): StoredProvider[]; apiKey(id: string): Promise<string | undefined> }
  /** The app's one network door (the proxy settings). */
  fetch: typeof globalThis.fetch
  events: EventSink
  /** Folder pick tokens (app.pickFolder / app.chooseFolder) redeemed into real paths. */
  redeemFolder(token: string, clientId: string): string
  sessionExists(sessionId: string): boolean
  /** Folders never indexed, whatever a source contains (the app's data folder). */
  excludedFolders: readonly string[]
  /** Watch folder sources for changes (the app: yes; tests choose). */
  watch?: boolean
  watchDebounceMs?: number
  maxFileBytes?: number
  now?: () => number
  log?: (message: string) => void
}

/** What `knowledge_search` may reach: only the bases the chat has attached. */
export interface KnowledgeToolPort {
  sessionBases(sessionId: string): { id: string; name: string }[]
  search(
    sessionId: string,
    query: string,
    options: { baseId?: string; topK: number; signal?: AbortSignal }
  ): Promise<{ hits: KnowledgeHit[]; warning?: string }>
}

/**
 * Knowledge bases: files and folders the user chose, indexed in the background (chunks, vectors
 * with one embedding model per base, FTS5) and searched by hybrid search. See docs/knowledge.md.
 */
export class KnowledgePresenter {
  private readonly store: KnowledgeStore
  private readonly indexer: KnowledgeIndexer
  private readonly filePicks: FilePicks
  private readonly watchers = new Map<string, SourceWatcher>()
  private readonly now: () => number

  constructor(private readonly deps: KnowledgeDeps) {
    this.now = deps.now ?? Date.now
    this.store = new KnowledgeStore(deps.db, deps.transaction)
    this.filePicks = new FilePicks(this.now)
    this.indexer = new KnowledgeIndexer({
      store: this.store,
      embed: (base, texts, signal) => this.embed(base, texts, signal),
      batchSize: (base) => BATCH_SIZE[this.providerKind(base.providerId) ?? 'openai'],
      progress: (progress) => deps.events.emit(knowledgeProgressChanged, { progress }),
      changed: (baseId, reason) => deps.events.emit(knowledgeBaseChanged, { baseId, reason }),
      scanned: (baseId, walked) => this.watch(baseId, walked),
      excluded: () => deps.excludedFolders,
      maxFileBytes: deps.maxFileBytes,
      now: this.now,
      log: deps.log
    })
  }

  /** On open: every base catches up with its files (changed, added, removed) and is watched. */
  start(): void {
    for (const base of this.store.bases()) {
      this.indexer.enqueue(base.id)
    }
  }

  list(): KnowledgeBaseView[] {
    return this.store.bases().map((b) => this.view(b))
  }

  get(baseId: string): KnowledgeBaseView {
    return this.view(this.store.requireBase(baseId))
  }

  embeddingProviders(): EmbeddingProviderView[] {
    return this.deps.providers
      .all()
      .filter((p) => p.enabled && EmbeddingProviderKind.safeParse(p.kind).success)
      .map((p) => {
        const kind = p.kind as EmbeddingProviderKind
        const own = p.models.map((m) => m.id).filter((id) => /embed|bge|e5|gte/i.test(id))
        return {
          providerId: p.id,
          name: p.name,
          kind,
          suggestedModels: [...new Set([...own, ...SUGGESTED_MODELS[kind]])]
        }
      })
  }

  /** Creates a base from picked files/folders; nothing is stored unless every pick is good. */
  create(
    input: { name: string; sources: string[]; embedding: EmbeddingModelRef },
    clientId: string
  ): KnowledgeBaseView {
    this.requireEmbeddingProvider(input.embedding.providerId)
    if (this.store.bases().length >= KNOWLEDGE_LIMITS.maxBases)
      throw new AppError('knowledge_too_many_bases', `At most ${KNOWLEDGE_LIMITS.maxBases} knowledge bases`)
    const sources = this.redeem(input.sources, clientId)
    const base = this.deps.transaction(() => {
      const created = this.store.createBase(input.name.trim(), input.embedding, this.now())
      this.store.addSources(created.id, sources, this.now())
      return created
    })
    this.deps.events.emit(knowledgeBaseChanged, { baseId: base.id, reason: 'created' })
    this.indexer.enqueue(base.id)
    return this.get(base.id)
  }

  rename(baseId: string, name: string): KnowledgeBaseView {
    this.store.requireBase(baseId)
    this.store.rename(baseId, name.trim())
    this.deps.events.emit(knowledgeBaseChanged, { baseId, reason: 'updated' })
    return this.get(baseId)
  }

  addSources(baseId: string, tokens: string[], clientId: string): KnowledgeBaseView {
    this.store.requireBase(baseId)
    const sources = this.redeem(tokens, clientId)
    this.store.addSources(baseId, sources, this.now())
    this.deps.events.emit(knowledgeBaseChanged, { baseId, reason: 'updated' })
    this.indexer.enqueue(baseId)
    return this.get(baseId)
  }

  async removeSource(baseId: string, sourceId: string): Promise<KnowledgeBaseView> {
    this.store.requireBase(baseId)
    // A run mid-way would write the source's files back: stop it, re-run on what remains.
    const busy = this.indexer.isBusy(baseId)
    if (busy) {
      this.indexer.cancel(baseId)
      await this.indexer.whenIdle()
    }
    this.store.removeSource(this.store.requireBase(baseId), sourceId)
    this.deps.events.emit(knowledgeBaseChanged, { baseId, reason: 'updated' })
    // The next scan re-aims the watcher at what remains.
    this.indexer.enqueue(baseId)
    return this.get(baseId)
  }

  reindex(baseId: string, full = false): KnowledgeBaseView {
    this.store.requireBase(baseId)
    this.indexer.enqueue(baseId, { full })
    return this.get(baseId)
  }

  cancel(baseId: string): KnowledgeBaseView {
    this.store.requireBase(baseId)
    this.indexer.cancel(baseId)
    return this.get(baseId)
  }

  /** The one way a base's model changes: every chunk is embedded again with the new one. */
  async changeEmbedding(baseId: string, embedding: EmbeddingModelRef): Promise<KnowledgeBaseView> {
    const base = this.store.requireBase(baseId)
    this.requireEmbeddingProvider(embedding.providerId)
    if (this.indexer.isBusy(baseId)) {
      this.indexer.cancel(baseId)
      await this.indexer.whenIdle()
    }
    this.store.changeModel(this.store.requireBase(base.id), embedding)
    this.deps.events.emit(knowledgeBaseChanged, { baseId, reason: 'updated' })
    this.indexer.enqueue(baseId)
    return this.get(baseId)
  }

  async remove(baseId: string): Promise<boolean> {
    const base = this.store.base(baseId)
    if (!base) return false
    if (this.indexer.isBusy(baseId)) {
      this.indexer.cancel(baseId)
      await this.indexer.whenIdle()
    }
    this.watchers.get(baseId)?.close()
    this.watchers.delete(baseId)
    const sessions = this.store.sessionsUsing(baseId)
    this.store.removeBase(this.store.requireBase(baseId))
    this.deps.events.emit(knowledgeBaseChanged, { baseId, reason: 'removed' })
    for (const sessionId of sessions)
      this.deps.events.emit(knowledgeSessionBasesChanged, {
        sessionId,
        baseIds: this.store.sessionBases(sessionId)
      })
    return true
  }

  /** Hybrid search over the bases: each query is embedded with each base's own model. */
  async search(input: {
    baseIds: string[]
    query: string
    topK: number
    mode?: KnowledgeSearchMode
    signal?: AbortSignal
  }): Promise<{ hits: KnowledgeHit[]; tookMs: number; warning?: string }> {
    const started = performance.now()
    const mode = input.mode ?? 'hybrid'
    const bases = [...new Set(input.baseIds)].map((id) => this.store.requireBase(id))
    const vectors = new Map<string, Float32Array | null>()
    let warning: string | undefined
    if (mode !== 'fulltext')
      for (const base of bases) {
        const key = `${base.providerId}\n${base.modelId}`
        if (!base.dimensions || vectors.has(key)) continue
        try {
          const signal = input.signal ?? new AbortController().signal
          const [vector] = await this.embed(base, [input.query], signal, QUERY_EMBEDDING)
          vectors.set(key, vector)
        } catch (error) {
          // Hybrid search still has its full-text half: a provider that is down (Ollama not
          // running, no network) costs the vector half, not the answer. Asked for vectors alone, it fails.
          if (mode === 'vector' || input.signal?.aborted) throw error
          vectors.set(key, null)
          warning = `Vector search was not available (${error instanceof Error ? error.message : String(error)}); these results come from full-text search only.`
        }
      }
    const ranked = bases.map((base) => ({
      base,
      lists: rankBase(
        this.store,
        base,
        input.query,
        vectors.get(`${base.providerId}\n${base.modelId}`) ?? null,
        input.topK,
        mode
      )
    }))
    const hits = topHits(this.store, ranked, input.query, input.topK)
    return { hits, tookMs: performance.now() - started, ...(warning ? { warning } : {}) }
  }

  /** The text at a cited place; only files indexed in that base are read. */
  async readSource(baseId: string, path: string, location: KnowledgeLocation): Promise<KnowledgeSourceText> {
    this.store.requireBase(baseId)
    const file = this.store.fileByPath(baseId, path)
    if (!file)
      throw new AppError(
        'knowledge_file_unknown',
        `That file is not part of this knowledge base: ${path.slice(0, 300)}`
      )
    return readSourceText(baseId, file, location)
  }

  /** Picks for files the desktop dialog returned (already the user's choice). */
  issueFilePicks(paths: readonly string[], clientId: string): { path: string; token: string }[] {
    return paths.map((path) => this.issueFilePick(path, clientId))
  }

  /** Typed paths as picks: each must be an existing regular file; the others are named. */
  chooseFiles(
    paths: readonly string[],
    clientId: string
  ): { files: { path: string; token: string }[]; refused: { path: string; message: string }[] } {
    const files: { path: string; token: string }[] = []
    const refused: { path: string; message: string }[] = []
    for (const path of paths) {
      try {
        files.push(this.issueFilePick(path, clientId))
      } catch (error) {
        refused.push({ path, message: error instanceof Error ? error.message : String(error) })
      }
    }
    return { files, refused }
  }

  /** A file pick; never one in the app's data folder (its database and secrets are never indexed). */
  private issueFilePick(path: string, clientId: string): { path: string; token: string } {
    if (insideAny(path, this.deps.excludedFolders))
      throw new AppError(
        'path_refused',
        `Files of the app's data folder cannot be added: ${path.slice(0, 300)}`
      )
    return this.filePicks.issue(path, clientId)
  }

  sessionBases(sessionId: string): string[] {
    return this.store.sessionBases(sessionId)
  }

  setSessionBases(sessionId: string, baseIds: string[]): string[] {
    if (!this.deps.sessionExists(sessionId)) throw new AppError('session_not_found', `No chat "${sessionId}"`)
    const unique = [...new Set(baseIds)]
    for (const id of unique) this.store.requireBase(id)
    this.store.setSessionBases(sessionId, unique)
    const now = this.store.sessionBases(sessionId)
    this.deps.events.emit(knowledgeSessionBasesChanged, { sessionId, baseIds: now })
    return now
  }

  /** The port the `knowledge_search` tool gets. */
  toolPort(): KnowledgeToolPort {
    return {
      sessionBases: (sessionId) =>
        this.store
          .sessionBases(sessionId)
          .map((id) => this.store.base(id))
          .filter((b): b is BaseRow => !!b)
          .map((b) => ({ id: b.id, name: b.name })),
      search: async (sessionId, query, options) => {
        const attached = this.store.sessionBases(sessionId)
        const wanted = options.baseId ? attached.filter((id) => id === options.baseId) : attached
        if (options.baseId && wanted.length === 0)
          throw new AppError(
            'knowledge_base_not_attached',
            `Knowledge base "${options.baseId}" is not attached to this chat`
          )
        if (wanted.length === 0) return { hits: [] }
        const { hits, warning } = await this.search({
          baseIds: wanted,
          query,
          topK: options.topK,
          signal: options.signal
        })
        return { hits, ...(warning ? { warning } : {}) }
      }
    }
  }

  /** Resolves once no run is queued or going (tests and the bench). */
  whenIdle(): Promise<void> {
    return this.indexer.whenIdle()
  }

  async dispose(): Promise<void> {
    for (const watcher of this.watchers.values()) watcher.close()
    this.watchers.clear()
    await this.indexer.dispose()
  }

  // -----------------------------------------------------------------------------------------

  private view(base: BaseRow): KnowledgeBaseView {
    const counts = this.store.counts(base.id)
    const { errors, errorCount } = this.store.fileErrors(base.id)
    return {
      id: base.id,
      name: base.name,
      embedding: { providerId: base.providerId, modelId: base.modelId, dimensions: base.dimensions },
      sources: this.store.sourceViews(base.id, (s) => sourcePresent(s.kind, s.path)),
      ...counts,
      status: base.status,
      lastIndexedAt: base.lastIndexedAt,
      lastError: base.lastError,
      errors,
      errorCount,
      progress: this.indexer.progress(base.id),
      createdAt: base.createdAt
    }
  }

  /** Pick tokens as sources: a file pick of this presenter's, else a folder pick. Any bad one refuses all. */
  private redeem(tokens: readonly string[], clientId: string): { kind: 'file' | 'folder'; path: string }[] {
    return tokens.map((raw) => {
      const token = raw.trim()
      if (!isPickToken(token))
        throw new AppError(
          'path_not_picked',
          `Choose the file or folder in the picker: "${token.slice(0, 300)}" was not picked there`
        )
      if (this.filePicks.has(token))
        return { kind: 'file' as const, path: this.filePicks.redeem(token, clientId) }
      return { kind: 'folder' as const, path: this.deps.redeemFolder(token, clientId) }
    })
  }

  /** A base's watcher follows what its last scan walked; until the first scan it has none. */
  private watch(baseId: string, walked: { folders: string[]; files: string[] }): void {
    this.watchers.get(baseId)?.close()
    this.watchers.delete(baseId)
    if (this.deps.watch === false || !this.store.base(baseId)) return
    this.watchers.set(
      baseId,
      new SourceWatcher(walked, () => this.indexer.enqueue(baseId), this.deps.watchDebounceMs, this.deps.log)
    )
  }

  private providerKind(providerId: string): EmbeddingProviderKind | null {
    const provider = this.deps.providers.all().find((p) => p.id === providerId)
    const kind = EmbeddingProviderKind.safeParse(provider?.kind)
    return kind.success ? kind.data : null
  }

  private requireEmbeddingProvider(providerId: string): StoredProvider {
    const provider = this.deps.providers.all().find((p) => p.id === providerId)
    if (!provider) throw new AppError('embedding_provider_not_found', `No provider "${providerId}"`)
    if (!EmbeddingProviderKind.safeParse(provider.kind).success)
      throw new AppError(
        'embedding_provider_unsupported',
        `${provider.name} cannot embed here: use an OpenAI, OpenAI-compatible, Gemini, Ollama or Mistral provider`
      )
    return provider
  }

  private async embed(
    base: BaseRow,
    texts: string[],
    signal: AbortSignal,
    limits: { maxRetries?: number; timeoutMs?: number } = {}
  ): Promise<Float32Array[]> {
    const provider = this.requireEmbeddingProvider(base.providerId)
    if (!provider.enabled) throw new AppError('embedding_provider_disabled', `${provider.name} is disabled`)
    const target: EmbeddingTarget = {
      kind: provider.kind as EmbeddingProviderKind,
      providerName: provider.name,
      baseUrl: provider.baseUrl,
      apiKey: await this.deps.providers.apiKey(provider.id),
      modelId: base.modelId
    }
    return embedTexts(target, texts, { fetch: this.deps.fetch, signal, ...limits })
  }
}

function sourcePresent(kind: 'file' | 'folder', path: string): boolean {
  if (!existsSync(path)) return false
  const info = lstatSync(path, { throwIfNoEntry: false })
  return kind === 'folder' ? !!info?.isDirectory() : !!info?.isFile()
}
