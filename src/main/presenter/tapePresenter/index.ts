import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { AppError } from '@shared/errors'
import {
  TapeEntryInput,
  type JsonObject,
  type TapeContextOptions,
  type TapeContextResult,
  type TapeEntry,
  type TapeEntryKind,
  type TapeInfo,
  type TapeSearchHit,
  type TapeSearchOptions
} from '@shared/types/tape'
import type { SqlitePresenter } from '../sqlitePresenter'
import { TapeStore, type NewEntry, type TapeRow } from './store'
import { detectTokenizer, searchTapes, type Tokenizer } from './search'
import { tapeContext } from './context'
import { createFork, discardFork, mergeFork, type ForkResult, type MergeResult } from './forks'
import { writeHandoff, type HandoffInput } from './handoff'
import { TapeIndexer } from './indexer'

export type { ForkResult, MergeResult } from './forks'
export type { HandoffInput } from './handoff'
export { forkTapeId } from './forks'

export interface TapePresenterDeps {
  sqlite: Pick<SqlitePresenter, 'db' | 'transaction'>
  now?: () => number
  newId?: () => string
  log?: (message: string) => void
}

/** A search first indexes up to this many pending rows; anything beyond is scanned instead. */
const SEARCH_CATCH_UP_ROWS = 20_000

/**
 * Append-only tapes. Every write is one IMMEDIATE transaction (or joins the caller's, as a
 * savepoint), which is how a projection and the facts it comes from commit together. The
 * full-text index follows right after each write (see TapeIndexer).
 */
export class TapePresenter {
  readonly store: TapeStore
  readonly tokenizer: Tokenizer
  readonly indexer: TapeIndexer
  private readonly newId: () => string

  constructor(private readonly deps: TapePresenterDeps) {
    this.store = new TapeStore(deps.sqlite.db, deps.now ?? Date.now)
    this.tokenizer = detectTokenizer(deps.sqlite.db)
    this.newId = deps.newId ?? (() => randomUUID().replaceAll('-', '').slice(0, 16))
    this.indexer = new TapeIndexer(
      deps.sqlite.db,
      (fn) => deps.sqlite.transaction(fn),
      deps.log ?? (() => {})
    )
    this.indexer.schedule() // whatever a crash or another process left unindexed
  }

  /** Stops background indexing (the rest is picked up at the next start). */
  dispose(): void {
    this.indexer.dispose()
  }

  /** Creates an empty tape; a session's tape id is usually the session id. */
  createTape(tapeId: string, sessionId: string | null = null): void {
    this.write(() => this.store.createTape({ id: tapeId, sessionId }))
  }

  hasTape(tapeId: string): boolean {
    return this.store.tape(tapeId) !== undefined
  }

  append(tapeId: string, entries: TapeEntryInput | readonly TapeEntryInput[]): TapeEntry[] {
    const list = (Array.isArray(entries) ? entries : [entries]) as readonly TapeEntryInput[]
    const valid = list.map(validateEntry)
    return this.write(() => this.store.insertEntries(tapeId, valid))
  }

  appendAnchor(
    tapeId: string,
    name: string,
    state: JsonObject = {},
    options: { provenanceKey?: string; meta?: JsonObject } = {}
  ): TapeEntry {
    return this.append(tapeId, { kind: 'anchor', name, payload: { name, state }, ...options })[0]
  }

  appendEvent(
    tapeId: string,
    name: string,
    data: JsonObject = {},
    options: { provenanceKey?: string; meta?: JsonObject } = {}
  ): TapeEntry {
    return this.append(tapeId, { kind: 'event', name, payload: { name, data }, ...options })[0]
  }

  entry(tapeId: string, entryId: number): TapeEntry | undefined {
    return this.store.entry(tapeId, entryId)
  }

  /** A page of one tape's own entries, in order. Forks never show up in their parent's list. */
  entries(tapeId: string, options: { afterEntryId?: number; limit?: number } = {}): TapeEntry[] {
    this.store.requireTape(tapeId)
    return this.store.list(tapeId, {
      afterEntryId: options.afterEntryId,
      limit: Math.min(options.limit ?? 200, 1000)
    })
  }

  /**
   * What a fork's agent sees: the parent's entries up to the fork point (recursively for forks
   * of forks), then the fork's own. For a tape that is not a fork it is just its entries.
   */
  inheritedView(tapeId: string): TapeEntry[] {
    const tape = this.store.requireTape(tapeId)
    const own = this.store.list(tapeId)
    if (!tape.parent_tape_id) return own
    const parent = this.inheritedView(tape.parent_tape_id).filter(
      (e) => e.tapeId !== tape.parent_tape_id || e.entryId <= (tape.parent_head_entry_id ?? 0)
    )
    return [...parent, ...own]
  }

  info(tapeId: string): TapeInfo {
    const tape = this.store.requireTape(tapeId)
    const [lastAnchor] = this.store.anchors(tapeId, 1)
    return {
      tapeId,
      sessionId: tape.session_id,
      entries: tape.head_entry_id,
      headEntryId: tape.head_entry_id,
      anchors: this.store.countKind(tapeId, 'anchor'),
      lastAnchor: lastAnchor ?? null,
      entriesSinceLastAnchor: tape.head_entry_id - (lastAnchor?.entryId ?? 0),
      fork: forkInfo(tape),
      tokenizer: this.tokenizer
    }
  }

  /** The newest `limit` anchors, oldest first. */
  anchors(tapeId: string, limit = 20): { entryId: number; name: string; createdAt: number }[] {
    this.store.requireTape(tapeId)
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new AppError('invalid_input', 'limit is 1..100')
    return this.store.anchors(tapeId, limit)
  }

  search(tapeId: string, query: string, options: TapeSearchOptions = {}): TapeSearchHit[] {
    this.store.requireTape(tapeId)
    return searchTapes(this.deps.sqlite.db, this.tokenizer, this.catchUpIndex(), [tapeId], query, options)
  }

  /** Search over several tapes at once (history search across sessions). */
  searchMany(tapeIds: readonly string[], query: string, options: TapeSearchOptions = {}): TapeSearchHit[] {
    return searchTapes(this.deps.sqlite.db, this.tokenizer, this.catchUpIndex(), tapeIds, query, options)
  }

  context(tapeId: string, entryIds: readonly number[], options: TapeContextOptions = {}): TapeContextResult {
    return tapeContext(this.store, tapeId, entryIds, options)
  }

  handoff(tapeId: string, input: HandoffInput = {}): TapeEntry {
    return this.write(() => writeHandoff(this.store, tapeId, input))
  }

  fork(parentTapeId: string, options: { forkId?: string; sessionId?: string | null } = {}): ForkResult {
    const forkId = options.forkId ?? this.newId()
    return this.write(() => createFork(this.store, parentTapeId, forkId, options.sessionId ?? null))
  }

  merge(forkTapeId: string, result: { entryIds?: readonly number[]; meta?: JsonObject } = {}): MergeResult {
    return this.write(() => mergeFork(this.store, forkTapeId, result))
  }

  discard(forkTapeId: string, reason: string, meta: JsonObject = {}): TapeEntry {
    if (!reason.trim()) throw new AppError('invalid_input', 'A discard needs a reason')
    return this.write(() => discardFork(this.store, forkTapeId, reason.trim(), meta))
  }

  forks(tapeId: string): { tapeId: string; forkId: string; status: string; parentHeadEntryId: number }[] {
    return this.store.forksOf(tapeId).map((row) => ({
      tapeId: row.id,
      forkId: row.fork_id!,
      status: row.fork_status!,
      parentHeadEntryId: row.parent_head_entry_id ?? 0
    }))
  }

  /** Deletes whole tapes and every fork below them. Only a session purge calls this. */
  purge(tapeIds: readonly string[]): string[] {
    return this.deps.sqlite.transaction(() => this.store.purge(tapeIds))
  }

  private write<T>(fn: () => T): T {
    const result = this.deps.sqlite.transaction(fn)
    this.indexer.schedule()
    return result
  }

  /** Indexes what is pending so results are exact; returns the index watermark to search with. */
  private catchUpIndex(): number {
    try {
      this.indexer.indexPending(SEARCH_CATCH_UP_ROWS)
    } catch (error) {
      // A busy database must not fail the search: the unindexed rows are scanned instead.
      this.deps.log?.(`tape index catch-up before search failed: ${String(error)}`)
    }
    return this.indexer.indexedSeq()
  }
}

function validateEntry(input: TapeEntryInput): NewEntry {
  const parsed = TapeEntryInput.safeParse(input)
  if (!parsed.success) throw new AppError('invalid_tape_entry', z.prettifyError(parsed.error))
  const { kind, name, payload, meta, provenanceKey } = parsed.data
  return {
    kind: kind as TapeEntryKind,
    name: name ?? null,
    payload,
    meta: meta ?? {},
    provenanceKey: provenanceKey ?? null
  }
}

function forkInfo(tape: TapeRow): TapeInfo['fork'] {
  if (!tape.parent_tape_id || !tape.fork_id || !tape.fork_status) return null
  return {
    parentTapeId: tape.parent_tape_id,
    forkId: tape.fork_id,
    status: tape.fork_status,
    parentHeadEntryId: tape.parent_head_entry_id ?? 0
  }
}
