import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTapeFixture, message, type TapeFixture } from './helpers'

const integrityCheck = (fx: { sqlite: { db: { exec(sql: string): unknown } } }) =>
  fx.sqlite.db.exec("INSERT INTO tape_fts (tape_fts, rank) VALUES ('integrity-check', 1)")

describe('tape full-text index', () => {
  let fx: TapeFixture
  beforeEach(() => {
    fx = openTapeFixture()
    fx.tape.createTape('s1')
  })
  afterEach(() => fx.close())

  it('catches up in the background right after an append', async () => {
    fx.tape.append('s1', [message('user', 'alpha bravo'), message('assistant', 'charlie delta')])
    expect(fx.tape.indexer.backlog()).toBe(2) // the append itself did not wait for the index
    await new Promise((resolve) => setImmediate(resolve))
    expect(fx.tape.indexer.backlog()).toBe(0)
    expect(() => integrityCheck(fx)).not.toThrow()
  })

  it('finds entries another connection appended and nobody indexed yet', () => {
    const other = fx.reopen()
    other.tape.indexer.dispose() // as if that process died before indexing
    other.tape.append('s1', message('user', 'written elsewhere: zephyr'))
    expect(fx.tape.indexer.backlog()).toBe(1)
    expect(fx.tape.search('s1', 'zephyr').map((h) => [h.entryId, h.matchedBy])).toEqual([[1, 'fts']])
    expect(fx.tape.indexer.backlog()).toBe(0)
  })

  it('scans rows the index has not reached when it cannot catch up', () => {
    fx.tape.indexer.dispose()
    fx.tape.append('s1', message('user', 'quokka one'))
    fx.tape.indexer.indexPending()
    fx.tape.append('s1', message('user', 'quokka two'))
    // Simulate a search that could not take the write lock to index first.
    fx.tape.indexer.indexPending = () => 0
    const hits = fx.tape.search('s1', 'quokka')
    expect(hits.map((h) => [h.entryId, h.matchedBy])).toEqual([
      [1, 'fts'],
      [2, 'substring']
    ])
  })

  it('keeps the index consistent when a session purge removes indexed and unindexed rows', () => {
    fx.tape.indexer.dispose()
    fx.tape.createTape('s2')
    fx.tape.append('s1', message('user', 'indexed row'))
    fx.tape.indexer.indexPending()
    fx.tape.append('s1', message('user', 'unindexed row'))
    fx.tape.append('s2', message('user', 'other tape row'))
    fx.tape.purge(['s1'])
    fx.tape.indexer.indexPending()
    expect(() => integrityCheck(fx)).not.toThrow()
    expect(fx.tape.search('s2', 'row').map((h) => h.tapeId)).toEqual(['s2'])
    // Numbers of purged rows are never reused below the index mark.
    fx.tape.createTape('s3')
    const [entry] = fx.tape.append('s3', message('user', 'fresh row'))
    expect(entry.entryId).toBe(1)
    expect(fx.tape.search('s3', 'fresh').map((h) => h.matchedBy)).toEqual(['fts'])
    expect(() => integrityCheck(fx)).not.toThrow()
  })
})
