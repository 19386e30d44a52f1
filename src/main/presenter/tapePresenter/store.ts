import type Database from 'better-sqlite3'
import { AppError } from '@shared/errors'
import type { JsonObject, TapeEntry, TapeEntryKind } from '@shared/types/tape'
import { buildSearchText } from './searchText'

type Db = Database.Database

export interface TapeRow {
  id: string
  session_id: string | null
  parent_tape_id: string | null
  fork_id: string | null
  fork_status: 'open' | 'merged' | 'discarded' | null
  parent_head_entry_id: number | null
  head_entry_id: number
  last_created_at: number
  created_at: number
}

export interface EntryRow {
  tape_id: string
  entry_id: number
  kind: TapeEntryKind
  name: string | null
  payload_json: string
  meta_json: string
  provenance_key: string | null
  search_text: string
  created_at: number
}

/** A validated entry ready to insert. */
export interface NewEntry {
  kind: TapeEntryKind
  name: string | null
  payload: JsonObject
  meta: JsonObject
  provenanceKey: string | null
}

export const ENTRY_COLUMNS =
  'tape_id, entry_id, kind, name, payload_json, meta_json, provenance_key, search_text, created_at'

/**
 * Row-level access to `tapes` and `tape_entries`. Every write here must run inside the caller's
 * transaction: the head counter read and the inserts are one atomic step, which is what keeps
 * entry ids gap-free across connections and processes.
 */
export class TapeStore {
  private readonly statements: ReturnType<typeof prepare>

  constructor(
    readonly db: Db,
    private readonly now: () => number
  ) {
    this.statements = prepare(db)
  }

  tape(tapeId: string): TapeRow | undefined {
    return this.statements.tape.get(tapeId) as TapeRow | undefined
  }

  requireTape(tapeId: string): TapeRow {
    const row = this.tape(tapeId)
    if (!row) throw new AppError('tape_not_found', `No tape named ${JSON.stringify(tapeId)}`)
    return row
  }

  createTape(row: {
    id: string
    sessionId: string | null
    parentTapeId?: string
    forkId?: string
    parentHeadEntryId?: number
  }): TapeRow {
    if (this.tape(row.id)) throw new AppError('tape_exists', `Tape ${JSON.stringify(row.id)} already exists`)
    this.statements.insertTape.run({
      id: row.id,
      session_id: row.sessionId,
      parent_tape_id: row.parentTapeId ?? null,
      fork_id: row.forkId ?? null,
      fork_status: row.forkId ? 'open' : null,
      parent_head_entry_id: row.parentHeadEntryId ?? null,
      created_at: this.now()
    })
    return this.requireTape(row.id)
  }

  /**
   * Inserts entries at the tape's head. A provenance key already on the tape returns the entry
   * it names instead of a new one, so a retried append never duplicates a fact.
   */
  insertEntries(tapeId: string, entries: readonly NewEntry[]): TapeEntry[] {
    const tape = this.requireTape(tapeId)
    let head = tape.head_entry_id
    let lastCreatedAt = tape.last_created_at
    const byKey = new Map<string, TapeEntry>()
    const result: TapeEntry[] = []
    for (const entry of entries) {
      if (entry.provenanceKey) {
        const known = byKey.get(entry.provenanceKey) ?? this.byProvenance(tapeId, entry.provenanceKey)
        if (known) {
          result.push(known)
          continue
        }
      }
      head += 1
      // Wall clocks step backwards; the tape's order must not.
      lastCreatedAt = Math.max(this.now(), lastCreatedAt)
      const row: EntryRow = {
        tape_id: tapeId,
        entry_id: head,
        kind: entry.kind,
        name: entry.name,
        payload_json: JSON.stringify(entry.payload),
        meta_json: JSON.stringify(entry.meta),
        provenance_key: entry.provenanceKey,
        search_text: buildSearchText(entry.kind, entry.name, entry.payload),
        created_at: lastCreatedAt
      }
      this.statements.insertEntry.run(row)
      const inserted = toEntry(row)
      if (entry.provenanceKey) byKey.set(entry.provenanceKey, inserted)
      result.push(inserted)
    }
    if (head !== tape.head_entry_id) {
      this.statements.advanceHead.run({ id: tapeId, head, last_created_at: lastCreatedAt })
    }
    return result
  }

  byProvenance(tapeId: string, key: string): TapeEntry | undefined {
    const row = this.statements.byProvenance.get(tapeId, key) as EntryRow | undefined
    return row ? toEntry(row) : undefined
  }

  entry(tapeId: string, entryId: number): TapeEntry | undefined {
    const row = this.statements.entry.get(tapeId, entryId) as EntryRow | undefined
    return row ? toEntry(row) : undefined
  }

  entryRows(tapeId: string, entryIds: readonly number[]): EntryRow[] {
    if (entryIds.length === 0) return []
    return this.db
      .prepare(
        `SELECT ${ENTRY_COLUMNS} FROM tape_entries WHERE tape_id = ? AND entry_id IN (${entryIds.map(() => '?').join(',')}) ORDER BY entry_id`
      )
      .all(tapeId, ...entryIds) as EntryRow[]
  }

  /** Entries in id order, `afterEntryId` exclusive, at most `limit`, optionally up to `maxEntryId`. */
  list(
    tapeId: string,
    options: { afterEntryId?: number; limit?: number; maxEntryId?: number } = {}
  ): TapeEntry[] {
    const rows = this.statements.list.all(
      tapeId,
      options.afterEntryId ?? 0,
      options.maxEntryId ?? Number.MAX_SAFE_INTEGER,
      options.limit ?? -1
    ) as EntryRow[]
    return rows.map(toEntry)
  }

  lastOfKind(tapeId: string, kind: TapeEntryKind): TapeEntry | undefined {
    const row = this.statements.lastOfKind.get(tapeId, kind) as EntryRow | undefined
    return row ? toEntry(row) : undefined
  }

  anchors(tapeId: string, limit: number): { entryId: number; name: string; createdAt: number }[] {
    const rows = this.statements.anchors.all(tapeId, limit) as {
      entry_id: number
      name: string | null
      created_at: number
    }[]
    return rows.reverse().map((r) => ({ entryId: r.entry_id, name: r.name ?? '', createdAt: r.created_at }))
  }

  countKind(tapeId: string, kind: TapeEntryKind): number {
    return (this.statements.countKind.get(tapeId, kind) as { n: number }).n
  }

  setForkStatus(tapeId: string, status: 'merged' | 'discarded'): void {
    this.statements.setForkStatus.run(status, tapeId)
  }

  forksOf(tapeId: string): TapeRow[] {
    return this.statements.forksOf.all(tapeId) as TapeRow[]
  }

  /**
   * Removes whole tapes (and every fork below them). The only way rows leave `tape_entries`:
   * the delete trigger lets them go only once their tape is marked as purging.
   */
  purge(tapeIds: readonly string[]): string[] {
    const all = new Set<string>()
    const queue = [...tapeIds]
    while (queue.length) {
      const id = queue.pop()!
      if (all.has(id) || !this.tape(id)) continue
      all.add(id)
      for (const fork of this.forksOf(id)) queue.push(fork.id)
    }
    for (const id of all) {
      this.statements.markPurging.run(id)
      this.statements.deleteEntries.run(id)
      this.statements.deleteTape.run(id)
    }
    return [...all]
  }
}

export function toEntry(row: EntryRow): TapeEntry {
  return {
    tapeId: row.tape_id,
    entryId: row.entry_id,
    kind: row.kind,
    name: row.name,
    payload: JSON.parse(row.payload_json) as JsonObject,
    meta: JSON.parse(row.meta_json) as JsonObject,
    provenanceKey: row.provenance_key,
    createdAt: row.created_at
  }
}

function prepare(db: Db) {
  return {
    tape: db.prepare('SELECT * FROM tapes WHERE id = ?'),
    insertTape:
      db.prepare(`INSERT INTO tapes (id, session_id, parent_tape_id, fork_id, fork_status, parent_head_entry_id, created_at)
      VALUES (@id, @session_id, @parent_tape_id, @fork_id, @fork_status, @parent_head_entry_id, @created_at)`),
    insertEntry: db.prepare(`INSERT INTO tape_entries (${ENTRY_COLUMNS})
      VALUES (@tape_id, @entry_id, @kind, @name, @payload_json, @meta_json, @provenance_key, @search_text, @created_at)`),
    advanceHead: db.prepare(
      'UPDATE tapes SET head_entry_id = @head, last_created_at = @last_created_at WHERE id = @id'
    ),
    byProvenance: db.prepare(
      `SELECT ${ENTRY_COLUMNS} FROM tape_entries WHERE tape_id = ? AND provenance_key = ?`
    ),
    entry: db.prepare(`SELECT ${ENTRY_COLUMNS} FROM tape_entries WHERE tape_id = ? AND entry_id = ?`),
    list: db.prepare(
      `SELECT ${ENTRY_COLUMNS} FROM tape_entries WHERE tape_id = ? AND entry_id > ? AND entry_id <= ? ORDER BY entry_id LIMIT ?`
    ),
    lastOfKind: db.prepare(
      `SELECT ${ENTRY_COLUMNS} FROM tape_entries WHERE tape_id = ? AND kind = ? ORDER BY entry_id DESC LIMIT 1`
    ),
    anchors: db.prepare(
      `SELECT entry_id, name, created_at FROM tape_entries WHERE tape_id = ? AND kind = 'anchor' ORDER BY entry_id DESC LIMIT ?`
    ),
    countKind: db.prepare('SELECT count(*) AS n FROM tape_entries WHERE tape_id = ? AND kind = ?'),
    setForkStatus: db.prepare('UPDATE tapes SET fork_status = ? WHERE id = ?'),
    forksOf: db.prepare('SELECT * FROM tapes WHERE parent_tape_id = ? ORDER BY created_at, id'),
    markPurging: db.prepare('UPDATE tapes SET purging = 1 WHERE id = ?'),
    deleteEntries: db.prepare('DELETE FROM tape_entries WHERE tape_id = ?'),
    deleteTape: db.prepare('DELETE FROM tapes WHERE id = ?')
  }
}
