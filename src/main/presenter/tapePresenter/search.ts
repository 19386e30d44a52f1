import Database from 'better-sqlite3'
import { z } from 'zod'
import { AppError } from '@shared/errors'
import {
  TapeSearchOptions,
  type TapeEntryKind,
  type TapeSearchHit,
  type TapeTimeBound
} from '@shared/types/tape'
import { summarize } from './searchText'

export type Tokenizer = 'trigram' | 'unicode61'

const MAX_QUERY_CHARS = 500
const MAX_TOKENS = 12
/**
 * bm25 ranks at most this many matches, the newest ones. A word on most of a 100,000-entry
 * tape would otherwise be scored everywhere; a query with fewer matches is ranked exactly.
 */
export const RANKED_CANDIDATES = 200
/** Up to this many tapes a substring scan goes through their index rather than the newest rows. */
const FEW_TAPES = 3

interface HitRow {
  seq: number
  tape_id: string
  entry_id: number
  kind: TapeEntryKind
  name: string | null
  created_at: number
  search_text: string
  rank?: number
}

/** Which tokenizer the index was built with (decided by the migration, per SQLite build). */
export function detectTokenizer(db: Database.Database): Tokenizer {
  const row = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'tape_fts'").get() as
    { sql: string } | undefined
  return row?.sql.includes('trigram') ? 'trigram' : 'unicode61'
}

/**
 * Full-text search over one or more tapes, best first. Tokens are ANDed. Tokens the index
 * cannot match (shorter than 3 characters under trigram) are matched as substrings, so a one-
 * or two-character query still finds entries. Substring-only hits rank after full-text hits.
 * Rows above `indexedSeq` (appended, not yet indexed) are covered by the substring scan.
 */
export function searchTapes(
  db: Database.Database,
  tokenizer: Tokenizer,
  indexedSeq: number,
  tapeIds: readonly string[] | null,
  query: string,
  rawOptions: TapeSearchOptions = {}
): TapeSearchHit[] {
  const options = parseOptions(rawOptions)
  const tokens = tokenize(query)
  const filters = buildFilters(tapeIds, options.kinds, options.start, options.end)
  // The same filters checked on each row found, not looked up: with `IN` lists (history search
  // over every chat) an index probe per listed tape per candidate cost ~15 ms a query.
  const rowFilters = buildFilters(tapeIds, options.kinds, options.start, options.end, '+')
  const ftsTokens = tokenizer === 'trigram' ? tokens.filter((t) => [...t].length >= 3) : tokens
  const substringTokens = tokenizer === 'trigram' ? tokens.filter((t) => [...t].length < 3) : []
  const hits: TapeSearchHit[] = []
  const seen = new Set<number>()

  if (ftsTokens.length > 0) {
    const match = ftsTokens
      .map((t) => `"${t.replaceAll('"', '""')}"${tokenizer === 'unicode61' ? '*' : ''}`)
      .join(' AND ')
    const like = substringTokens.map(() => " AND e.search_text LIKE ? ESCAPE '\\'")
    // Candidates are filtered through a covering index (no row reads); only the final page
    // of rows is read in full.
    const filterIndex = substringTokens.length ? '' : ' INDEXED BY tape_entries_search_filter'
    const rows = runFtsQuery(
      () =>
        db
          .prepare(
            `SELECT e.seq, e.tape_id, e.entry_id, e.kind, e.name, e.created_at, e.search_text, c.rank FROM (
           SELECT tape_fts.rowid AS seq, bm25(tape_fts) AS rank
           FROM tape_fts JOIN tape_entries e${filterIndex} ON e.seq = tape_fts.rowid
           WHERE tape_fts MATCH ?${rowFilters.sql}${like.join('')}
           ORDER BY tape_fts.rowid DESC LIMIT ${RANKED_CANDIDATES}) c
         JOIN tape_entries e ON e.seq = c.seq
         ORDER BY c.rank, e.created_at DESC, e.entry_id DESC LIMIT ?`
          )
          .all(match, ...rowFilters.params, ...substringTokens.map(likePattern), options.limit) as HitRow[]
    )
    for (const row of rows) {
      seen.add(row.seq)
      hits.push(toHit(row, 'fts'))
    }
  }

  // Under trigram, a full-text match of every token already is the substring match; the scan
  // is only needed when some token could not go through the index.
  const indexCoveredEverything = tokenizer === 'trigram' && substringTokens.length === 0
  // When the index answered every token, only rows it has not seen yet need a scan (if any).
  const hasUnindexedRows = () =>
    ((db.prepare('SELECT max(seq) AS m FROM tape_entries').get() as { m: number | null }).m ?? 0) > indexedSeq
  if (hits.length < options.limit && (!indexCoveredEverything || hasUnindexedRows())) {
    const like = tokens.map(() => " AND e.search_text LIKE ? ESCAPE '\\'").join('')
    // Across tapes (history search) the scan walks the table newest first and stops at the
    // limit: a one- or two-character query matches most rows, so it reads a few hundred
    // instead of sorting every match (which took ~150 ms over 100,000 entries). Appended
    // order stands for time here (a fork's copies count as new).
    const singleTape = tapeIds?.length === 1
    // A few tapes are read through their index (their rows may be a small, old part of the table).
    const fewTapes = tapeIds !== null && tapeIds.length <= FEW_TAPES
    const order = indexCoveredEverything || !singleTape ? 'e.seq DESC' : 'e.entry_id DESC'
    const tail = indexCoveredEverything ? ' AND e.seq > ?' : ''
    const scanFilters = fewTapes || indexCoveredEverything ? filters : rowFilters
    const rows = db
      .prepare(
        `SELECT e.seq, e.tape_id, e.entry_id, e.kind, e.name, e.created_at, e.search_text
         FROM tape_entries e WHERE 1 = 1${scanFilters.sql}${tail}${like} ORDER BY ${order} LIMIT ?`
      )
      .all(
        ...scanFilters.params,
        ...(indexCoveredEverything ? [indexedSeq] : []),
        ...tokens.map(likePattern),
        options.limit + seen.size
      ) as HitRow[]
    for (const row of rows) {
      if (hits.length >= options.limit) break
      if (seen.has(row.seq)) continue
      seen.add(row.seq)
      hits.push(toHit(row, 'substring'))
    }
  }
  return hits
}

function parseOptions(raw: TapeSearchOptions) {
  const parsed = TapeSearchOptions.safeParse(raw)
  if (!parsed.success) {
    throw new AppError('invalid_search_options', z.prettifyError(parsed.error))
  }
  const start = parsed.data.start === undefined ? undefined : toEpochMs(parsed.data.start, 'start')
  const end = parsed.data.end === undefined ? undefined : toEpochMs(parsed.data.end, 'end')
  if (start !== undefined && end !== undefined && start > end) {
    throw new AppError('invalid_search_options', 'start must not be after end')
  }
  return { ...parsed.data, start, end }
}

function toEpochMs(bound: TapeTimeBound, label: string): number {
  if (typeof bound === 'number') return bound
  const ms = Date.parse(bound)
  if (Number.isNaN(ms)) throw new AppError('invalid_search_options', `${label} is not a valid date: ${bound}`)
  return ms
}

function tokenize(query: string): string[] {
  const trimmed = query.trim()
  if (trimmed.length > MAX_QUERY_CHARS) {
    throw new AppError('invalid_query', `The search query is longer than ${MAX_QUERY_CHARS} characters`)
  }
  // FTS5 reads a query only up to a NUL byte (an unterminated phrase): NUL separates words like a space.
  const tokens = [...new Set(trimmed.split(/[\s\0]+/).filter(Boolean))]
  if (tokens.length === 0) throw new AppError('invalid_query', 'The search query is empty')
  if (tokens.length > MAX_TOKENS)
    throw new AppError('invalid_query', `Use at most ${MAX_TOKENS} words in a search`)
  return tokens
}

// SQLite reports every FTS5 query problem as SQLITE_ERROR; only its text tells a query the parser
// rejected from a broken schema, so it is read here, where the query is run, and nowhere else.
const FTS_QUERY_REJECTED = /^(fts5: syntax error|unterminated string|unknown special query)/

/**
 * Runs a MATCH on the user's words: should FTS5 still reject the query, the client hears
 * `invalid_query`, not `SQLITE_ERROR`. Anything else (busy, I/O, schema) stays unrecognised and
 * is logged as an internal error.
 */
export function runFtsQuery<T>(run: () => T): T {
  try {
    return run()
  } catch (error) {
    if (error instanceof Database.SqliteError && FTS_QUERY_REJECTED.test(error.message))
      throw new AppError('invalid_query', `The search query could not be run: ${error.message}`)
    throw error
  }
}

/** `column` '+' makes SQLite check a filter on each row instead of using an index for it. */
function buildFilters(
  tapeIds: readonly string[] | null,
  kinds: readonly TapeEntryKind[] | undefined,
  start: number | undefined,
  end: number | undefined,
  column: '' | '+' = ''
): { sql: string; params: unknown[] } {
  const e = `${column}e`
  let sql = ''
  const params: unknown[] = []
  if (tapeIds) {
    if (tapeIds.length === 0) return { sql: ' AND 0', params }
    sql += ` AND ${e}.tape_id IN (${tapeIds.map(() => '?').join(',')})`
    params.push(...tapeIds)
  }
  if (kinds?.length) {
    sql += ` AND ${e}.kind IN (${kinds.map(() => '?').join(',')})`
    params.push(...kinds)
  }
  if (start !== undefined) {
    sql += ` AND ${e}.created_at >= ?`
    params.push(start)
  }
  if (end !== undefined) {
    sql += ` AND ${e}.created_at <= ?`
    params.push(end)
  }
  return { sql, params }
}

function likePattern(token: string): string {
  return `%${token.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

function toHit(row: HitRow, matchedBy: 'fts' | 'substring'): TapeSearchHit {
  // bm25() is negative, more negative = better; fold it into [0, 1) so both kinds share a scale.
  const strength = row.rank === undefined ? 0 : Math.max(0, -row.rank)
  return {
    tapeId: row.tape_id,
    entryId: row.entry_id,
    kind: row.kind,
    name: row.name,
    createdAt: row.created_at,
    summary: summarize(row.search_text),
    score: matchedBy === 'fts' ? strength / (1 + strength) : 0,
    matchedBy
  }
}
