import type Database from 'better-sqlite3'

/** Rows indexed per transaction: big enough for FTS5 to batch well, small enough to yield often. */
const CHUNK = 2_000

/**
 * Keeps the full-text index caught up with the tape. Appends commit without touching FTS5
 * (trigram indexing costs several times the append); this adds the new rows shortly after, in
 * large batches, up to a watermark stored in the database — so another connection or a
 * restart after a crash simply continues where the index stopped.
 */
export class TapeIndexer {
  private scheduled: ReturnType<typeof setImmediate> | null = null
  private disposed = false

  constructor(
    private readonly db: Database.Database,
    private readonly transaction: <T>(fn: () => T) => T,
    private readonly log: (message: string) => void
  ) {}

  /** The highest `seq` already in the index. */
  indexedSeq(): number {
    return (
      this.db.prepare('SELECT indexed_seq AS s FROM tape_index_state WHERE id = 1').get() as { s: number }
    ).s
  }

  /** Rows appended but not yet indexed. */
  backlog(): number {
    return (
      this.db.prepare('SELECT count(*) AS n FROM tape_entries WHERE seq > ?').get(this.indexedSeq()) as {
        n: number
      }
    ).n
  }

  /** Cheap check (two primary-key reads) so a search with nothing pending takes no write lock. */
  hasBacklog(): boolean {
    const row = this.db
      .prepare(
        'SELECT coalesce((SELECT max(seq) FROM tape_entries), 0) > (SELECT indexed_seq FROM tape_index_state WHERE id = 1) AS pending'
      )
      .get() as { pending: number }
    return row.pending === 1
  }

  /** Indexes up to `maxRows` pending rows now; returns how many it added. */
  indexPending(maxRows = Number.POSITIVE_INFINITY): number {
    if (!this.hasBacklog()) return 0
    let total = 0
    while (total < maxRows) {
      const added = this.transaction(() => {
        const from = this.indexedSeq()
        const rows = this.db
          .prepare('SELECT seq, search_text FROM tape_entries WHERE seq > ? ORDER BY seq LIMIT ?')
          .all(from, Math.min(CHUNK, maxRows - total)) as { seq: number; search_text: string }[]
        if (rows.length === 0) return 0
        const insert = this.db.prepare('INSERT INTO tape_fts (rowid, search_text) VALUES (?, ?)')
        for (const row of rows) insert.run(row.seq, row.search_text)
        this.db
          .prepare('UPDATE tape_index_state SET indexed_seq = ? WHERE id = 1')
          .run(rows[rows.length - 1].seq)
        return rows.length
      })
      if (added === 0) break
      total += added
    }
    return total
  }

  /** Catches up soon, off the caller's path; repeated calls coalesce. */
  schedule(): void {
    if (this.scheduled || this.disposed) return
    this.scheduled = setImmediate(() => {
      this.scheduled = null
      if (this.disposed || !this.db.open) return
      try {
        // One chunk per turn of the event loop, so a large backlog never blocks the process.
        if (this.indexPending(CHUNK) === CHUNK) this.schedule()
      } catch (error) {
        this.log(`tape index catch-up failed, will retry on the next append or search: ${String(error)}`)
      }
    })
  }

  dispose(): void {
    this.disposed = true
    if (this.scheduled) clearImmediate(this.scheduled)
    this.scheduled = null
  }
}
