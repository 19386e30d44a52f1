import type { KnowledgeHit, KnowledgeSearchMode } from '@shared/types/knowledge'
import type { BaseRow, KnowledgeStore } from './store'

/** Reciprocal rank fusion's constant: how much a first place outweighs a tenth (Cormack et al.). */
export const RRF_K = 60
/** Each half contributes this many candidates per wanted hit (at least MIN_CANDIDATES). */
const CANDIDATES_PER_HIT = 4
const MIN_CANDIDATES = 20
const SNIPPET_CHARS = 240
const MAX_QUERY_TERMS = 32

/** One base's ranked chunk ids from both halves, before fusion. */
export interface RankedLists {
  vector: number[]
  fullText: number[]
}

/**
 * Words that match nearly every chunk: in a question ("when do employees get their salary")
 * they would pull unrelated chunks into the full-text list, where fusion rewards them.
 */
const STOPWORDS = new Set(
  (
    'a an the and or but if of to in on at by for with from as is are was were be been being it its this that ' +
    'these those there here what which who whom whose when where why how do does did done can could should ' +
    'would will shall may might must i me my we our you your he she they them their his her not no yes so ' +
    'than then too very just also about into over under after before up down out get got has have had'
  ).split(' ')
)

/**
 * The FTS5 query for what the user typed: its words, each quoted (so no FTS syntax gets
 * through), any of them matching; bm25 ranks chunks with more and rarer words first. Common
 * words are left out unless the query has nothing else.
 */
export function fullTextQuery(query: string): string | null {
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])]
  const content = words.filter((w) => !STOPWORDS.has(w))
  const chosen = (content.length ? content : words).slice(0, MAX_QUERY_TERMS)
  return chosen.length ? chosen.map((w) => `"${w}"`).join(' OR ') : null
}

/** The candidate lists of one base: vector kNN (when the base has vectors and a query vector) and FTS5. */
export function rankBase(
  store: KnowledgeStore,
  base: BaseRow,
  query: string,
  queryVector: Float32Array | null,
  topK: number,
  mode: KnowledgeSearchMode
): RankedLists {
  const candidates = Math.max(topK * CANDIDATES_PER_HIT, MIN_CANDIDATES)
  const vector =
    mode !== 'fulltext' && queryVector && base.dimensions
      ? store.vectors.nearest(base.dimensions, base.vecKey, queryVector, candidates).map((h) => h.chunkId)
      : []
  const match = mode !== 'vector' ? fullTextQuery(query) : null
  const fullText = match ? store.fullText(base.id, match, candidates) : []
  return { vector, fullText }
}

/** Reciprocal rank fusion of ranked lists: each list gives 1/(RRF_K + rank) to its items. */
export function fuse(lists: readonly (readonly number[])[]): Map<number, number> {
  const scores = new Map<number, number>()
  for (const list of lists)
    list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + i + 1)))
  return scores
}

/** The best `topK` hits over the bases' fused lists, with their text and a snippet. */
export function topHits(
  store: KnowledgeStore,
  ranked: { base: BaseRow; lists: RankedLists }[],
  query: string,
  topK: number
): KnowledgeHit[] {
  const scored: { base: BaseRow; id: number; score: number }[] = []
  for (const { base, lists } of ranked)
    for (const [id, score] of fuse([lists.vector, lists.fullText])) scored.push({ base, id, score })
  scored.sort((a, b) => b.score - a.score || a.id - b.id)
  const best = scored.slice(0, topK)
  const rows = store.chunks(best.map((s) => s.id))
  const hits: KnowledgeHit[] = []
  for (const { base, id, score } of best) {
    const row = rows.get(id)
    if (!row) continue
    hits.push({
      baseId: base.id,
      baseName: base.name,
      chunkId: id,
      path: row.path,
      location: row.location,
      score,
      text: row.text,
      snippet: snippetOf(row.text, query)
    })
  }
  return hits
}

/** About SNIPPET_CHARS of the text around the first query word it contains (else its start). */
export function snippetOf(text: string, query: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= SNIPPET_CHARS) return flat
  const lower = flat.toLowerCase()
  let at = -1
  for (const word of query.toLowerCase().match(/[\p{L}\p{N}_]{3,}/gu) ?? []) {
    const i = lower.indexOf(word)
    if (i !== -1 && (at === -1 || i < at)) at = i
  }
  const start = Math.max(0, Math.min(at === -1 ? 0 : at - SNIPPET_CHARS / 3, flat.length - SNIPPET_CHARS))
  const piece = flat.slice(start, start + SNIPPET_CHARS)
  return `${start > 0 ? '…' : ''}${piece}${start + SNIPPET_CHARS < flat.length ? '…' : ''}`
}
