import { randomBytes } from 'node:crypto'
import { AppError } from '@shared/errors'
import {
  KnowledgeLocation,
  type EmbeddingModelRef,
  type KnowledgeBaseStatus,
  type KnowledgeFileError,
  type KnowledgeSourceView
} from '@shared/types/knowledge'
import type { Db } from '../sqlitePresenter'
import type { Chunk } from './chunker'
import { VectorIndex } from './vectorIndex'

export interface BaseRow {
  vecKey: number
  id: string
  name: string
  providerId: string
  modelId: string
  dimensions: number | null
  status: KnowledgeBaseStatus
  lastIndexedAt: number | null
  lastError: string | null
  createdAt: number
}

export interface SourceRow {
  id: string
  baseId: string
  kind: 'file' | 'folder'
  path: string
}

export interface FileRow {
  id: number
  sourceId: string
  path: string
  size: number
  mtimeMs: number
  hash: string
  state: 'pending' | 'indexed' | 'failed' | 'skipped'
}

export interface ChunkRow {
  id: number
  fileId: number
  path: string
  text: string
  location: KnowledgeLocation
}

const MAX_LISTED_ERRORS = 200

const BASE_COLUMNS = `vec_key AS vecKey, id, name, provider_id AS providerId, model_id AS modelId,
  dimensions, status, last_indexed_at AS lastIndexedAt, last_error AS lastError, created_at AS createdAt`

export function newBaseId(): string {
  return `kb_${randomBytes(12).toString('base64url')}`
}

function newSourceId(): string {
  return `ks_${randomBytes(9).toString('base64url')}`
}

/** Knowledge rows in the app's SQLite: bases, sources, files, chunks (+ FTS by trigger) and vectors. */
export class KnowledgeStore {
  readonly vectors: VectorIndex

  constructor(
    private readonly db: Db,
    private readonly transaction: <T>(fn: () => T) => T
  ) {
    this.vectors = new VectorIndex(db)
  }

  // -- bases ---------------------------------------------------------------------------------

  bases(): BaseRow[] {
    return this.db
      .prepare(`SELECT ${BASE_COLUMNS} FROM knowledge_bases ORDER BY created_at, id`)
      .all() as BaseRow[]
  }

  base(id: string): BaseRow | undefined {
    return this.db.prepare(`SELECT ${BASE_COLUMNS} FROM knowledge_bases WHERE id = ?`).get(id) as
      BaseRow | undefined
  }

  requireBase(id: string): BaseRow {
    const base = this.base(id)
    if (!base) throw new AppError('knowledge_base_not_found', `No knowledge base "${id}"`)
    return base
  }

  createBase(name: string, embedding: EmbeddingModelRef, now: number): BaseRow {
    const id = newBaseId()
    this.db
      .prepare(
        `INSERT INTO knowledge_bases (id, name, provider_id, model_id, status, created_at)
         VALUES (?, ?, ?, ?, 'queued', ?)`
      )
      .run(id, name, embedding.providerId, embedding.modelId, now)
    return this.requireBase(id)
  }

  rename(id: string, name: string): void {
    this.db.prepare('UPDATE knowledge_bases SET name = ? WHERE id = ?').run(name, id)
  }

  setStatus(id: string, status: KnowledgeBaseStatus, lastError: string | null = null): void {
    this.db
      .prepare('UPDATE knowledge_bases SET status = ?, last_error = ? WHERE id = ?')
      .run(status, lastError, id)
  }

  finishRun(id: string, now: number): void {
    this.db
      .prepare(
        `UPDATE knowledge_bases SET status = 'idle', last_error = NULL, last_indexed_at = ? WHERE id = ?`
      )
      .run(now, id)
  }

  setDimensions(id: string, dimensions: number): void {
    this.db
      .prepare('UPDATE knowledge_bases SET dimensions = ? WHERE id = ? AND dimensions IS NULL')
      .run(dimensions, id)
  }

  /** A new model: every vector goes, every chunk waits to be embedded again (the text stays). */
  changeModel(base: BaseRow, embedding: EmbeddingModelRef): void {
    this.transaction(() => {
      if (base.dimensions) this.vectors.deleteBase(base.dimensions, base.vecKey)
      this.db
        .prepare(
          `UPDATE knowledge_bases SET provider_id = ?, model_id = ?, dimensions = NULL, status = 'queued',
           last_error = NULL WHERE id = ?`
        )
        .run(embedding.providerId, embedding.modelId, base.id)
      this.db.prepare('UPDATE knowledge_chunks SET embedded = 0 WHERE base_id = ?').run(base.id)
      this.db
        .prepare(`UPDATE knowledge_files SET state = 'pending' WHERE base_id = ? AND state = 'indexed'`)
        .run(base.id)
    })
  }

  removeBase(base: BaseRow): void {
    this.transaction(() => {
      if (base.dimensions) this.vectors.deleteBase(base.dimensions, base.vecKey)
      this.db.prepare('DELETE FROM knowledge_chunks WHERE base_id = ?').run(base.id)
      this.db.prepare('DELETE FROM knowledge_bases WHERE id = ?').run(base.id)
    })
  }

  counts(id: string): { fileCount: number; chunkCount: number; bytes: number } {
    const files = this.db
      .prepare(
        `SELECT COUNT(*) AS fileCount, COALESCE(SUM(size), 0) AS bytes, COALESCE(SUM(chunk_count), 0) AS chunkCount
         FROM knowledge_files WHERE base_id = ? AND state IN ('indexed', 'pending')`
      )
      .get(id) as { fileCount: number; bytes: number; chunkCount: number }
    return files
  }

  fileErrors(id: string): { errors: KnowledgeFileError[]; errorCount: number } {
    const errors = this.db
      .prepare(
        `SELECT path, error_code AS code, error AS message FROM knowledge_files
         WHERE base_id = ? AND state IN ('failed', 'skipped') ORDER BY path LIMIT ?`
      )
      .all(id, MAX_LISTED_ERRORS) as KnowledgeFileError[]
    const { n } = this.db
      .prepare(
        `SELECT COUNT(*) AS n FROM knowledge_files WHERE base_id = ? AND state IN ('failed', 'skipped')`
      )
      .get(id) as { n: number }
    return { errors, errorCount: n }
  }

  // -- sources -------------------------------------------------------------------------------

  sources(baseId: string): SourceRow[] {
    return this.db
      .prepare(
        'SELECT id, base_id AS baseId, kind, path FROM knowledge_sources WHERE base_id = ? ORDER BY created_at, path'
      )
      .all(baseId) as SourceRow[]
  }

  /** Adds sources not already in the base; a path given twice is kept once. */
  addSources(baseId: string, sources: { kind: 'file' | 'folder'; path: string }[], now: number): void {
    const insert = this.db.prepare(
      'INSERT OR IGNORE INTO knowledge_sources (id, base_id, kind, path, created_at) VALUES (?, ?, ?, ?, ?)'
    )
    this.transaction(() => {
      for (const source of sources) insert.run(newSourceId(), baseId, source.kind, source.path, now)
    })
  }

  removeSource(base: BaseRow, sourceId: string): void {
    const source = this.db
      .prepare('SELECT id FROM knowledge_sources WHERE id = ? AND base_id = ?')
      .get(sourceId, base.id)
    if (!source)
      throw new AppError('knowledge_source_not_found', `No source "${sourceId}" in this knowledge base`)
    this.transaction(() => {
      const files = this.db.prepare('SELECT id FROM knowledge_files WHERE source_id = ?').all(sourceId) as {
        id: number
      }[]
      for (const file of files) this.deleteFile(base, file.id)
      this.db.prepare('DELETE FROM knowledge_sources WHERE id = ?').run(sourceId)
    })
  }

  sourceViews(baseId: string, present: (source: SourceRow) => boolean): KnowledgeSourceView[] {
    return this.sources(baseId).map((s) => ({ id: s.id, kind: s.kind, path: s.path, present: present(s) }))
  }

  // -- files and chunks -----------------------------------------------------------------------

  files(baseId: string, sourceId: string): FileRow[] {
    return this.db
      .prepare(
        `SELECT id, source_id AS sourceId, path, size, mtime_ms AS mtimeMs, hash, state
         FROM knowledge_files WHERE base_id = ? AND source_id = ?`
      )
      .all(baseId, sourceId) as FileRow[]
  }

  fileByPath(baseId: string, path: string): FileRow | undefined {
    return this.db
      .prepare(
        `SELECT id, source_id AS sourceId, path, size, mtime_ms AS mtimeMs, hash, state
         FROM knowledge_files WHERE base_id = ? AND path = ?`
      )
      .get(baseId, path) as FileRow | undefined
  }

  /** The file's old chunks and vectors go; its row and error go too. */
  deleteFile(base: BaseRow, fileId: number): void {
    this.transaction(() => {
      this.dropChunks(base, fileId)
      this.db.prepare('DELETE FROM knowledge_files WHERE id = ?').run(fileId)
    })
  }

  /** Same bytes, new mtime (a touch, a checkout): only the stamp changes. */
  touchFile(fileId: number, size: number, mtimeMs: number): void {
    this.db
      .prepare('UPDATE knowledge_files SET size = ?, mtime_ms = ? WHERE id = ?')
      .run(size, mtimeMs, fileId)
  }

  /**
   * A file's new chunks, waiting to be embedded, in one transaction with dropping the old ones:
   * a run killed at any point leaves either the old file or the new one, never half of each.
   */
  replaceChunks(
    base: BaseRow,
    sourceId: string,
    file: { path: string; size: number; mtimeMs: number; hash: string },
    chunks: Chunk[]
  ): number {
    return this.transaction(() => {
      const fileId = this.upsertFile(base.id, sourceId, file, 'pending', null, chunks.length)
      this.dropChunks(base, fileId)
      const insert = this.db.prepare(
        'INSERT INTO knowledge_chunks (base_id, file_id, ord, text, location) VALUES (?, ?, ?, ?, ?)'
      )
      chunks.forEach((chunk, i) => insert.run(base.id, fileId, i, chunk.text, JSON.stringify(chunk.location)))
      return fileId
    })
  }

  /** A file that could not be indexed (or was left out on purpose): no chunks, the reason kept. */
  markFile(
    base: BaseRow,
    sourceId: string,
    file: { path: string; size: number; mtimeMs: number; hash: string },
    state: 'failed' | 'skipped',
    error: { code: KnowledgeFileError['code']; message: string }
  ): void {
    this.transaction(() => {
      const fileId = this.upsertFile(base.id, sourceId, file, state, error, 0)
      this.dropChunks(base, fileId)
    })
  }

  private upsertFile(
    baseId: string,
    sourceId: string,
    file: { path: string; size: number; mtimeMs: number; hash: string },
    state: FileRow['state'],
    error: { code: string; message: string } | null,
    chunkCount: number
  ): number {
    const row = this.db
      .prepare(
        `INSERT INTO knowledge_files (base_id, source_id, path, size, mtime_ms, hash, state, error_code, error, chunk_count)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (base_id, path) DO UPDATE SET source_id = excluded.source_id, size = excluded.size,
           mtime_ms = excluded.mtime_ms, hash = excluded.hash, state = excluded.state,
           error_code = excluded.error_code, error = excluded.error, chunk_count = excluded.chunk_count
         RETURNING id`
      )
      .get(
        baseId,
        sourceId,
        file.path,
        file.size,
        file.mtimeMs,
        file.hash,
        state,
        error?.code ?? null,
        error?.message ?? null,
        chunkCount
      ) as { id: number }
    return row.id
  }

  private dropChunks(base: BaseRow, fileId: number): void {
    if (base.dimensions) {
      const ids = this.db.prepare('SELECT id FROM knowledge_chunks WHERE file_id = ?').all(fileId) as {
        id: number
      }[]
      this.vectors.deleteChunks(
        base.dimensions,
        ids.map((r) => r.id)
      )
    }
    this.db.prepare('DELETE FROM knowledge_chunks WHERE file_id = ?').run(fileId)
  }

  /** Chunks still waiting for their vector, oldest first. */
  pendingChunks(baseId: string, limit: number): { id: number; fileId: number; text: string }[] {
    return this.db
      .prepare(
        `SELECT id, file_id AS fileId, text FROM knowledge_chunks WHERE base_id = ? AND embedded = 0 ORDER BY id LIMIT ?`
      )
      .all(baseId, limit) as { id: number; fileId: number; text: string }[]
  }

  pendingChunkCount(baseId: string): number {
    return (
      this.db
        .prepare('SELECT COUNT(*) AS n FROM knowledge_chunks WHERE base_id = ? AND embedded = 0')
        .get(baseId) as {
        n: number
      }
    ).n
  }

  pendingFileCount(baseId: string): number {
    return (
      this.db
        .prepare(`SELECT COUNT(*) AS n FROM knowledge_files WHERE base_id = ? AND state = 'pending'`)
        .get(baseId) as {
        n: number
      }
    ).n
  }

  /** Stores a batch's vectors; files whose every chunk now has one are indexed. Returns how many files finished. */
  storeVectors(
    base: BaseRow,
    dimensions: number,
    items: { id: number; vector: Float32Array }[],
    now: number
  ): number {
    return this.transaction(() => {
      const mark = this.db.prepare('UPDATE knowledge_chunks SET embedded = 1 WHERE id = ?')
      for (const item of items) {
        this.vectors.insert(dimensions, base.vecKey, item.id, item.vector)
        mark.run(item.id)
      }
      return this.db
        .prepare(
          `UPDATE knowledge_files SET state = 'indexed', indexed_at = ? WHERE base_id = ? AND state = 'pending'
           AND NOT EXISTS (SELECT 1 FROM knowledge_chunks c WHERE c.file_id = knowledge_files.id AND c.embedded = 0)`
        )
        .run(now, base.id).changes
    })
  }

  /** The files of chunks a provider refused: they fail, their chunks go, the rest carries on. */
  failChunkFiles(base: BaseRow, chunkIds: readonly number[], message: string): void {
    const fileIds = new Set<number>()
    const fileOf = this.db.prepare('SELECT file_id AS fileId FROM knowledge_chunks WHERE id = ?')
    for (const id of chunkIds) {
      const row = fileOf.get(id) as { fileId: number } | undefined
      if (row) fileIds.add(row.fileId)
    }
    this.transaction(() => {
      for (const fileId of fileIds) {
        this.dropChunks(base, fileId)
        this.db
          .prepare(
            `UPDATE knowledge_files SET state = 'failed', error_code = 'embedding_failed', error = ?, chunk_count = 0 WHERE id = ?`
          )
          .run(message, fileId)
      }
    })
  }

  chunks(ids: readonly number[]): Map<number, ChunkRow> {
    const found = new Map<number, ChunkRow>()
    const get = this.db.prepare(
      `SELECT c.id, c.file_id AS fileId, f.path, c.text, c.location FROM knowledge_chunks c
       JOIN knowledge_files f ON f.id = c.file_id WHERE c.id = ?`
    )
    for (const id of ids) {
      const row = get.get(id) as (Omit<ChunkRow, 'location'> & { location: string }) | undefined
      if (row) found.set(id, { ...row, location: KnowledgeLocation.parse(JSON.parse(row.location)) })
    }
    return found
  }

  /** Full-text hits of a base, best first (bm25; SQLite's rank is lower-is-better). */
  fullText(baseId: string, match: string, limit: number): number[] {
    return (
      this.db
        .prepare(
          `SELECT f.rowid AS id FROM knowledge_chunks_fts f JOIN knowledge_chunks c ON c.id = f.rowid
           WHERE knowledge_chunks_fts MATCH ? AND c.base_id = ? ORDER BY f.rank LIMIT ?`
        )
        .all(match, baseId, limit) as { id: number }[]
    ).map((r) => r.id)
  }

  // -- chats ----------------------------------------------------------------------------------

  sessionBases(sessionId: string): string[] {
    return (
      this.db
        .prepare('SELECT base_id AS id FROM knowledge_session_bases WHERE session_id = ? ORDER BY position')
        .all(sessionId) as { id: string }[]
    ).map((r) => r.id)
  }

  setSessionBases(sessionId: string, baseIds: readonly string[]): void {
    this.transaction(() => {
      this.db.prepare('DELETE FROM knowledge_session_bases WHERE session_id = ?').run(sessionId)
      const insert = this.db.prepare(
        'INSERT OR IGNORE INTO knowledge_session_bases (session_id, base_id, position) VALUES (?, ?, ?)'
      )
      baseIds.forEach((id, i) => insert.run(sessionId, id, i))
    })
  }

  sessionsUsing(baseId: string): string[] {
    return (
      this.db
        .prepare('SELECT DISTINCT session_id AS id FROM knowledge_session_bases WHERE base_id = ?')
        .all(baseId) as { id: string }[]
    ).map((r) => r.id)
  }
}
