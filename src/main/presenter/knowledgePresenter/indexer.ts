import { createHash } from 'node:crypto'
import { lstat, readFile } from 'node:fs/promises'
import { AppError, isAppError } from '@shared/errors'
import { KNOWLEDGE_LIMITS, type KnowledgeFileError, type KnowledgeProgress } from '@shared/types/knowledge'
import { chunkDocument } from './chunker'
import { EmbeddingError } from './embeddings'
import { isRealPath, scanFolder, statFile, type FoundFile } from './fileScan'
import { readDocument } from './readers'
import type { BaseRow, FileRow, KnowledgeStore, SourceRow } from './store'

/** How often progress is announced while a run goes (the last state is always sent). */
const PROGRESS_INTERVAL_MS = 150

export interface IndexerDeps {
  store: KnowledgeStore
  /** The base's texts as vectors, with its own model; throws EmbeddingError. */
  embed(base: BaseRow, texts: string[], signal: AbortSignal): Promise<Float32Array[]>
  /** Texts per embedding request for the base's provider. */
  batchSize(base: BaseRow): number
  progress(progress: KnowledgeProgress): void
  changed(baseId: string, reason: 'updated' | 'indexed'): void
  /** What the scan walked: the folders of folder sources and the file sources (for the watcher). */
  scanned?(baseId: string, walked: { folders: string[]; files: string[] }): void
  /** Folders never read (the app's data folder). */
  excluded: () => readonly string[]
  maxFileBytes?: number
  now?: () => number
  log?: (message: string) => void
}

interface Job {
  baseId: string
  full: boolean
}

interface Candidate {
  source: SourceRow
  file: FoundFile
  /** Known hash when the stamp changed but the bytes may not have. */
  previous?: FileRow
}

/**
 * The background queue: one base at a time, in the order asked. A run compares the sources'
 * files with the index (mtime and size, then the hash), reads and chunks what changed, drops what
 * is gone and embeds every chunk still without a vector, in batches, so a run that was killed or
 * cancelled continues where it stopped. One file failing never stops the others; a provider that
 * cannot embed at all stops the run and says why.
 */
export class KnowledgeIndexer {
  private readonly queue: Job[] = []
  private running: { baseId: string; controller: AbortController; again: Job | null } | null = null
  private readonly progressOf = new Map<string, KnowledgeProgress>()
  private idle: Promise<void> = Promise.resolve()
  private disposed = false

  constructor(private readonly deps: IndexerDeps) {}

  /** Queues a run (a base already queued is queued once; `full` re-reads every file). */
  enqueue(baseId: string, options: { full?: boolean } = {}): void {
    if (this.disposed) return
    const full = options.full ?? false
    if (this.running?.baseId === baseId) {
      this.running.again = { baseId, full: full || (this.running.again?.full ?? false) }
      return
    }
    const queued = this.queue.find((j) => j.baseId === baseId)
    if (queued) {
      queued.full ||= full
      return
    }
    this.queue.push({ baseId, full })
    const base = this.deps.store.base(baseId)
    if (base && base.status !== 'indexing') {
      this.deps.store.setStatus(baseId, 'queued', null)
      this.deps.changed(baseId, 'updated')
    }
    this.pump()
  }

  /** Stops the base's run (or drops it from the queue); what was done stays. */
  cancel(baseId: string): boolean {
    const at = this.queue.findIndex((j) => j.baseId === baseId)
    if (at !== -1) {
      this.queue.splice(at, 1)
      this.deps.store.setStatus(baseId, 'cancelled', null)
      this.deps.changed(baseId, 'updated')
      return true
    }
    if (this.running?.baseId === baseId) {
      this.running.again = null
      this.running.controller.abort(new AppError('cancelled', 'Indexing was cancelled'))
      return true
    }
    return false
  }

  /** Where the base's run is, if one is going. */
  progress(baseId: string): KnowledgeProgress | null {
    return this.progressOf.get(baseId) ?? null
  }

  isBusy(baseId: string): boolean {
    return this.running?.baseId === baseId || this.queue.some((j) => j.baseId === baseId)
  }

  /** Resolves once nothing is queued or running (tests, the bench). */
  async whenIdle(): Promise<void> {
    while (this.running || this.queue.length) await this.idle
  }

  async dispose(): Promise<void> {
    this.disposed = true
    this.queue.length = 0
    this.running?.controller.abort(new AppError('cancelled', 'The app is closing'))
    await this.idle
  }

  private pump(): void {
    if (this.running || this.disposed) return
    const job = this.queue.shift()
    if (!job) return
    const controller = new AbortController()
    this.running = { baseId: job.baseId, controller, again: null }
    this.idle = this.run(job, controller.signal)
      .catch((error: unknown) => this.deps.log?.(`knowledge: run of ${job.baseId} failed: ${String(error)}`))
      .finally(() => {
        const again = this.running?.again
        this.running = null
        this.progressOf.delete(job.baseId)
        if (again && !this.disposed) this.queue.unshift(again)
        this.pump()
      })
  }

  private async run(job: Job, signal: AbortSignal): Promise<void> {
    const { store } = this.deps
    const now = this.deps.now ?? Date.now
    let base = store.base(job.baseId)
    if (!base) return
    store.setStatus(base.id, 'indexing', null)
    this.deps.changed(base.id, 'updated')
    const state: KnowledgeProgress = {
      baseId: base.id,
      phase: 'scanning',
      filesDone: 0,
      filesTotal: 0,
      chunksDone: 0,
      chunksTotal: 0,
      currentFile: null
    }
    let lastSent = 0
    const report = (force = false) => {
      this.progressOf.set(state.baseId, { ...state })
      if (!force && now() - lastSent < PROGRESS_INTERVAL_MS) return
      lastSent = now()
      this.deps.progress({ ...state })
    }
    report(true)
    try {
      const candidates = await this.scan(base, job.full, signal)
      state.filesTotal = candidates.length + store.pendingFileCount(base.id)
      state.chunksTotal = store.pendingChunkCount(base.id)
      state.phase = 'reading'
      report(true)
      const batch = this.deps.batchSize(base)
      for (const candidate of candidates) {
        signal.throwIfAborted()
        state.currentFile = candidate.file.path
        report()
        const added = await this.readOne(base, candidate)
        if (added === 0) state.filesDone++
        state.chunksTotal += added
        report()
        // Embed as soon as there is a full batch: vectors land while files are still being read.
        while (store.pendingChunkCount(base.id) >= batch)
          base = await this.embedBatch(base, batch, state, signal, report)
      }
      state.phase = 'embedding'
      state.currentFile = null
      report(true)
      while (store.pendingChunkCount(base.id) > 0)
        base = await this.embedBatch(base, batch, state, signal, report)
      store.finishRun(base.id, now())
      state.phase = 'done'
      state.filesDone = state.filesTotal
      report(true)
    } catch (error) {
      if (signal.aborted) {
        store.setStatus(job.baseId, 'cancelled', null)
        state.phase = 'cancelled'
      } else {
        const message = error instanceof Error ? error.message : String(error)
        store.setStatus(job.baseId, 'error', message)
        state.phase = 'failed'
        if (!isAppError(error)) this.deps.log?.(`knowledge: indexing ${job.baseId} failed: ${String(error)}`)
      }
      report(true)
    } finally {
      this.deps.changed(job.baseId, 'indexed')
    }
  }

  /** What must be read: new files, changed ones (hash differs) and, for `full`, all. Gone files are dropped. */
  private async scan(base: BaseRow, full: boolean, signal: AbortSignal): Promise<Candidate[]> {
    const { store } = this.deps
    const maxFileBytes = this.deps.maxFileBytes ?? KNOWLEDGE_LIMITS.maxFileBytes
    const candidates: Candidate[] = []
    const walked = { folders: [] as string[], files: [] as string[] }
    for (const source of store.sources(base.id)) {
      signal.throwIfAborted()
      const known = new Map(store.files(base.id, source.id).map((f) => [f.path, f]))
      let found: FoundFile[] = []
      let tooLarge: FoundFile[] = []
      if (source.kind === 'folder') {
        const info = await lstat(source.path).catch(() => null)
        if (info?.isDirectory()) {
          const result = await scanFolder(source.path, {
            maxFileBytes,
            excluded: this.deps.excluded(),
            signal
          })
          found = result.files
          tooLarge = result.tooLarge
          walked.folders.push(...result.folders)
          if (result.truncated)
            this.deps.log?.(
              `knowledge: ${source.path} has more files than a source may hold; the rest were left out`
            )
        }
      } else {
        walked.files.push(source.path)
        const file = await statFile(source.path)
        if (file) (file.size > maxFileBytes ? tooLarge : found).push(file)
      }
      const seen = new Set<string>()
      for (const file of tooLarge) {
        seen.add(file.path)
        const row = known.get(file.path)
        if (row?.state === 'skipped' && row.size === file.size && row.mtimeMs === file.mtimeMs) continue
        store.markFile(base, source.id, { ...file, hash: '' }, 'skipped', {
          code: 'too_large',
          message: `Larger than ${Math.round(maxFileBytes / 1024 / 1024)} MB: left out`
        })
      }
      for (const file of found) {
        seen.add(file.path)
        const row = known.get(file.path)
        if (!row || full) candidates.push({ source, file, previous: row })
        else if (row.size !== file.size || row.mtimeMs !== file.mtimeMs)
          candidates.push({ source, file, previous: row })
        // Unchanged: indexed, or pending (its chunks are embedded below), or failed/skipped as before.
      }
      for (const [path, row] of known) if (!seen.has(path)) store.deleteFile(base, row.id)
    }
    this.deps.scanned?.(base.id, walked)
    return candidates
  }

  /** Reads one file into chunks waiting for vectors; returns how many (0: skipped, failed, or unchanged bytes). */
  private async readOne(base: BaseRow, { source, file, previous }: Candidate): Promise<number> {
    const { store } = this.deps
    let bytes: Buffer
    try {
      // Never through a link: the path must still be the regular file the scan found.
      const info = await lstat(file.path)
      if (!info.isFile() || !(await isRealPath(file.path)))
        throw new AppError('unreadable', 'no longer a regular file reached without a link')
      bytes = await readFile(file.path)
    } catch (error) {
      const current = store.fileByPath(base.id, file.path)
      if (current) store.deleteFile(base, current.id)
      this.deps.log?.(`knowledge: ${file.path} could not be read: ${String(error)}`)
      return 0
    }
    const hash = createHash('sha256').update(bytes).digest('hex')
    const stamped = { ...file, size: bytes.length, hash }
    if (previous && previous.hash === hash && previous.state !== 'failed') {
      // Same bytes under a new stamp (a touch, a checkout): nothing to read again.
      store.touchFile(previous.id, stamped.size, stamped.mtimeMs)
      return 0
    }
    try {
      const chunks = chunkDocument(await readDocument(file.path, bytes))
      if (chunks.length === 0) {
        store.markFile(base, source.id, stamped, 'skipped', {
          code: 'empty',
          message: 'No text found in the file'
        })
        return 0
      }
      store.replaceChunks(base, source.id, stamped, chunks)
      return chunks.length
    } catch (error) {
      const code: KnowledgeFileError['code'] = isAppError(error, 'unsupported') ? 'unsupported' : 'unreadable'
      const message = error instanceof Error ? error.message : String(error)
      store.markFile(base, source.id, stamped, code === 'unsupported' ? 'skipped' : 'failed', {
        code,
        message
      })
      return 0
    }
  }

  /** Embeds the next batch of waiting chunks; returns the base as it now is (dimensions set by the first). */
  private async embedBatch(
    base: BaseRow,
    size: number,
    state: KnowledgeProgress,
    signal: AbortSignal,
    report: (force?: boolean) => void
  ): Promise<BaseRow> {
    const { store } = this.deps
    const pending = store.pendingChunks(base.id, size)
    if (pending.length === 0) return base
    const { embedded, refused } = await this.embedIsolating(base, pending, signal)
    if (refused.length) {
      const files = new Set(refused.map((r) => r.chunk.fileId))
      store.failChunkFiles(
        base,
        refused.map((r) => r.chunk.id),
        refused[0].message
      )
      state.filesDone += files.size
      state.chunksTotal -= pending.filter((c) => files.has(c.fileId)).length
      report()
      // A refused file's other chunks went with it: only the other files' vectors are stored.
      const kept = embedded.filter((item) => !files.has(item.fileId))
      if (kept.length === 0) return base
      return this.storeBatch(base, kept, state, report)
    }
    return this.storeBatch(base, embedded, state, report)
  }

  /**
   * Embeds chunks; when the provider refuses a batch's texts (too long, malformed), halves it
   * until the refused texts are alone, so one bad file never takes its neighbours down.
   */
  private async embedIsolating(
    base: BaseRow,
    chunks: { id: number; fileId: number; text: string }[],
    signal: AbortSignal
  ): Promise<{
    embedded: { id: number; fileId: number; vector: Float32Array }[]
    refused: { chunk: { id: number; fileId: number }; message: string }[]
  }> {
    try {
      const vectors = await this.deps.embed(
        base,
        chunks.map((c) => c.text),
        signal
      )
      return {
        embedded: chunks.map((c, i) => ({ id: c.id, fileId: c.fileId, vector: vectors[i] })),
        refused: []
      }
    } catch (error) {
      if (signal.aborted || !(error instanceof EmbeddingError) || error.scope === 'run') throw error
      if (chunks.length === 1)
        return { embedded: [], refused: [{ chunk: chunks[0], message: error.message }] }
      const half = Math.ceil(chunks.length / 2)
      const first = await this.embedIsolating(base, chunks.slice(0, half), signal)
      const second = await this.embedIsolating(base, chunks.slice(half), signal)
      return {
        embedded: [...first.embedded, ...second.embedded],
        refused: [...first.refused, ...second.refused]
      }
    }
  }

  private storeBatch(
    base: BaseRow,
    items: { id: number; vector: Float32Array }[],
    state: KnowledgeProgress,
    report: (force?: boolean) => void
  ): BaseRow {
    const { store } = this.deps
    const now = this.deps.now ?? Date.now
    const dimensions = items[0].vector.length
    if (base.dimensions === null) {
      store.setDimensions(base.id, dimensions)
      base = store.requireBase(base.id)
    }
    if (base.dimensions !== dimensions)
      throw new AppError(
        'embedding_dimensions_changed',
        `The embedding model now answers ${dimensions} dimensions, but this base holds ${base.dimensions}: re-embed it with the model`
      )
    state.filesDone += store.storeVectors(base, dimensions, items, now())
    state.chunksDone += items.length
    state.phase = state.phase === 'reading' ? 'reading' : 'embedding'
    report()
    return base
  }
}
