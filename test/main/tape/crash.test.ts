import { execa } from 'execa'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTapeFixture, workerCommand, type TapeFixture } from './helpers'

describe('tape after a crash', () => {
  let fx: TapeFixture
  beforeEach(() => {
    fx = openTapeFixture()
    fx.tape.createTape('crashy')
  })
  afterEach(() => fx.close())

  it('survives SIGKILL mid-append: integrity ok, ids gap-free, no half-written batch', async () => {
    fx.sqlite.close() // the worker is the only writer while it runs
    const command = workerCommand('appendWorker.ts', [fx.file, 'crashy', 'W', 'forever', '7'])
    const child = execa(command.file, command.args, { ...command.options, reject: false })
    await new Promise<void>((resolve, reject) => {
      let seen = 0
      child.stdout!.on('data', (chunk: Buffer) => {
        seen += chunk.toString().split('\n').filter(Boolean).length
        if (seen >= 5) resolve() // ~40 batches committed, and it is still writing
      })
      child.on('exit', () => reject(new Error('worker exited before it was killed')))
    })
    child.kill('SIGKILL')
    const result = await child
    expect(result.signal).toBe('SIGKILL')

    const { sqlite, tape } = fx.reopen()
    expect(sqlite.db.pragma('integrity_check', { simple: true })).toBe('ok')
    // The index trails the tape; catching up after the crash leaves it matching the content.
    tape.indexer.indexPending()
    expect(tape.indexer.backlog()).toBe(0)
    expect(() =>
      sqlite.db.exec("INSERT INTO tape_fts (tape_fts, rank) VALUES ('integrity-check', 1)")
    ).not.toThrow()
    const rows = sqlite.db
      .prepare(
        "SELECT entry_id, meta_json, payload_json FROM tape_entries WHERE tape_id = 'crashy' ORDER BY entry_id"
      )
      .all() as { entry_id: number; meta_json: string; payload_json: string }[]
    expect(rows.length).toBeGreaterThanOrEqual(7 * 40)
    expect(rows.map((r) => r.entry_id)).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1))
    expect(rows.length % 7).toBe(0) // every batch is whole: one transaction each
    const batches = new Map<number, number[]>()
    for (const row of rows) {
      const meta = JSON.parse(row.meta_json) as { batch: number; index: number }
      expect(JSON.parse(row.payload_json).text).toMatch(/^W batch \d+ item \d lorem/)
      batches.set(meta.batch, [...(batches.get(meta.batch) ?? []), meta.index])
    }
    for (const indexes of batches.values()) expect(indexes).toEqual([0, 1, 2, 3, 4, 5, 6])
    expect(tape.info('crashy').headEntryId).toBe(rows.length)
    const lastBatch = JSON.parse(rows[rows.length - 1].meta_json).batch
    expect(tape.search('crashy', `W batch ${lastBatch} item 6`).map((h) => h.entryId)).toEqual([rows.length])
    // The tape keeps working after the crash.
    tape.appendEvent('crashy', 'test/after-crash')
    expect(tape.info('crashy').headEntryId).toBe(rows.length + 1)
  })
})
