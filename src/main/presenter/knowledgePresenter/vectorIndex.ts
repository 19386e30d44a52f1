import * as sqliteVec from 'sqlite-vec'
import { AppError } from '@shared/errors'
import type { Db } from '../sqlitePresenter'
import { asarUnpackedPath } from '../../appResources'

const MAX_DIMENSIONS = 8192

/**
 * Loads sqlite-vec into the app's connection once. Packaged, the extension is unpacked beside
 * the asar (electron-builder.yml asarUnpack): SQLite opens it by path, which an asar cannot serve.
 */
export function loadSqliteVec(db: Db): void {
  try {
    db.prepare('SELECT vec_version()').get()
    return
  } catch {
    // not loaded yet
  }
  db.loadExtension(asarUnpackedPath(sqliteVec.getLoadablePath()))
}

/** `knowledge_vec_<dim>`: a vec0 table per dimension, its rows partitioned by base (cosine distance). */
function tableName(dimensions: number): string {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_DIMENSIONS)
    throw new AppError(
      'embedding_bad_dimensions',
      `An embedding of ${dimensions} dimensions cannot be stored`
    )
  return `knowledge_vec_${dimensions}`
}

export interface VectorHit {
  chunkId: number
  distance: number
}

/** The vectors of all bases, one vec0 table per dimension; a chunk's rowid is its chunk id. */
export class VectorIndex {
  private readonly ready = new Set<number>()

  constructor(private readonly db: Db) {
    loadSqliteVec(db)
  }

  private table(dimensions: number): string {
    const name = tableName(dimensions)
    if (!this.ready.has(dimensions)) {
      this.db.exec(
        `CREATE VIRTUAL TABLE IF NOT EXISTS ${name} USING vec0(
          base_key INTEGER PARTITION KEY, embedding float[${dimensions}] distance_metric=cosine)`
      )
      this.ready.add(dimensions)
    }
    return name
  }

  insert(dimensions: number, baseKey: number, chunkId: number, vector: Float32Array): void {
    if (vector.length !== dimensions)
      throw new AppError(
        'embedding_dimensions_changed',
        `The embedding model answered ${vector.length} dimensions; this base holds ${dimensions}`
      )
    this.db
      .prepare(
        `INSERT OR REPLACE INTO ${this.table(dimensions)}(rowid, base_key, embedding) VALUES (?, ?, ?)`
      )
      .run(BigInt(chunkId), BigInt(baseKey), vector)
  }

  deleteChunks(dimensions: number, chunkIds: readonly number[]): void {
    const statement = this.db.prepare(`DELETE FROM ${this.table(dimensions)} WHERE rowid = ?`)
    for (const id of chunkIds) statement.run(BigInt(id))
  }

  deleteBase(dimensions: number, baseKey: number): void {
    this.db.prepare(`DELETE FROM ${this.table(dimensions)} WHERE base_key = ?`).run(BigInt(baseKey))
  }

  /** The `k` nearest chunks of a base (cosine distance, smaller is nearer). */
  nearest(dimensions: number, baseKey: number, query: Float32Array, k: number): VectorHit[] {
    if (query.length !== dimensions) return []
    return this.db
      .prepare(
        `SELECT rowid AS chunkId, distance FROM ${this.table(dimensions)}
         WHERE embedding MATCH ? AND k = ? AND base_key = ? ORDER BY distance`
      )
      .all(query, k, BigInt(baseKey)) as VectorHit[]
  }
}
