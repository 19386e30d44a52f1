import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTapeFixture, message, type TapeFixture } from './helpers'
import { truncateUtf8 } from '../../../src/main/presenter/tapePresenter/context'

describe('tape context', () => {
  let fx: TapeFixture
  beforeEach(() => {
    fx = openTapeFixture()
    fx.tape.createTape('s1')
    for (let i = 1; i <= 20; i++)
      fx.tape.append('s1', message(i % 2 ? 'user' : 'assistant', `entry ${i} ` + 'x'.repeat(i * 100)))
  })
  afterEach(() => fx.close())

  it('returns requested entries with their neighbours, sorted by id', () => {
    const result = fx.tape.context('s1', [10], { before: 2, after: 1 })
    expect(result.entries.map((e) => [e.entryId, e.requested])).toEqual([
      [8, false],
      [9, false],
      [10, true],
      [11, false]
    ])
    expect(result.matchedEntryIds).toEqual([10])
    expect(result.omittedEntryIds).toEqual([])
  })

  it('caps bytes per entry with a marker and never splits a character', () => {
    const result = fx.tape.context('s1', [20], { before: 0, after: 0, maxBytesPerEntry: 100 })
    const [entry] = result.entries
    expect(entry.evidence.truncated).toBe(true)
    expect(entry.evidence.bytes).toBeLessThanOrEqual(100)
    expect(entry.evidence.text.endsWith('...')).toBe(true)
    expect(
      entry.evidence.text.startsWith('user\nentry 20 x') ||
        entry.evidence.text.startsWith('assistant\nentry 20')
    ).toBe(true)
    const cjk = truncateUtf8('分词器分词器', 10)
    expect(cjk).toEqual({ text: '分词...', bytes: 9, truncated: true })
  })

  it('caps the total, keeping requested entries before neighbours and listing what was left out', () => {
    const result = fx.tape.context('s1', [5, 15], {
      before: 2,
      after: 2,
      maxBytesPerEntry: 1000,
      maxTotalBytes: 2600
    })
    expect(result.totalBytes).toBeLessThanOrEqual(2600)
    const ids = result.entries.map((e) => e.entryId)
    expect(ids).toContain(5)
    expect(ids).toContain(15)
    expect(result.omittedEntryIds.length).toBeGreaterThan(0)
    expect([...ids, ...result.omittedEntryIds].sort((a, b) => a - b)).toEqual([
      3, 4, 5, 6, 7, 13, 14, 15, 16, 17
    ])
  })

  it('caps the number of entries', () => {
    const result = fx.tape.context('s1', [10], { before: 5, after: 5, limit: 3 })
    expect(result.entries.map((e) => e.entryId)).toEqual([9, 10, 11])
    expect(result.omittedEntryIds).toHaveLength(8)
  })

  it('reports ids that do not exist and rejects bad options', () => {
    const result = fx.tape.context('s1', [99, 20], { before: 0, after: 0 })
    expect(result.matchedEntryIds).toEqual([20])
    expect(result.requestedEntryIds).toEqual([99, 20])
    expect(() => fx.tape.context('s1', [])).toThrow(
      expect.objectContaining({ code: 'invalid_context_options' })
    )
    expect(() => fx.tape.context('s1', [1], { maxTotalBytes: 10 ** 9 })).toThrow(
      expect.objectContaining({ code: 'invalid_context_options' })
    )
  })
})
