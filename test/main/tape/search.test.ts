import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runFtsQuery } from '../../../src/main/presenter/tapePresenter/search'
import { openTapeFixture, message, type TapeFixture } from './helpers'

describe('tape search', () => {
  let fx: TapeFixture
  let clock = 0
  beforeEach(() => {
    clock = Date.parse('2026-01-01T00:00:00Z')
    fx = openTapeFixture({ now: () => clock })
    fx.tape.createTape('s1')
    fx.tape.createTape('other')
    const at = (iso: string) => (clock = Date.parse(iso))
    at('2026-01-01T10:00:00Z')
    fx.tape.append('s1', message('user', 'Please refactor the tokenizer module'))
    at('2026-01-02T10:00:00Z')
    fx.tape.append('s1', {
      kind: 'tool_call',
      name: 'grep',
      payload: { toolCallId: 't1', params: '{"pattern":"tokenizer"}' }
    })
    fx.tape.append('s1', {
      kind: 'tool_result',
      name: 'grep',
      payload: { toolCallId: 't1', response: 'src/tokenizer.ts:12 exit code 0' }
    })
    at('2026-01-03T10:00:00Z')
    fx.tape.append('s1', message('assistant', 'The tokenizer now splits CJK: 分词器 works, and so does Go'))
    fx.tape.appendAnchor('s1', 'handoff/refactor', { summary: 'tokenizer refactor done' })
    fx.tape.append('other', message('user', 'tokenizer in another session'))
  })
  afterEach(() => fx.close())

  it('ranks full-text hits with bm25 and ANDs the tokens', () => {
    const hits = fx.tape.search('s1', 'tokenizer')
    expect(hits.map((h) => h.entryId).sort()).toEqual([1, 2, 3, 4, 5])
    expect(hits.every((h) => h.matchedBy === 'fts' && h.score > 0 && h.score < 1 && h.tapeId === 's1')).toBe(
      true
    )
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a))
    expect(
      fx.tape
        .search('s1', 'tokenizer refactor')
        .map((h) => h.entryId)
        .sort()
    ).toEqual([1, 5])
    expect(fx.tape.search('s1', 'nothing-like-this')).toEqual([])
  })

  it('filters by kind and by time (ms or ISO)', () => {
    expect(
      fx.tape
        .search('s1', 'tokenizer', { kinds: ['tool_call', 'tool_result'] })
        .map((h) => h.kind)
        .sort()
    ).toEqual(['tool_call', 'tool_result'])
    const jan2 = fx.tape.search('s1', 'tokenizer', {
      start: '2026-01-02T00:00:00Z',
      end: Date.parse('2026-01-02T23:59:59Z')
    })
    expect(jan2.map((h) => h.entryId).sort()).toEqual([2, 3])
    expect(
      fx.tape
        .search('s1', 'tokenizer', { start: '2026-01-03' })
        .map((h) => h.entryId)
        .sort()
    ).toEqual([4, 5])
  })

  it('finds one- and two-character queries by substring, newest first', () => {
    const go = fx.tape.search('s1', 'Go')
    expect(go.map((h) => [h.entryId, h.matchedBy, h.score])).toEqual([[4, 'substring', 0]])
    expect(fx.tape.search('s1', '器').map((h) => h.entryId)).toEqual([4])
    expect(fx.tape.search('s1', '12').map((h) => h.entryId)).toEqual([3])
    // A short token next to a long one filters the full-text hits.
    expect(fx.tape.search('s1', 'tokenizer 0').map((h) => h.entryId)).toEqual([3])
    // LIKE wildcards in the query are literal.
    expect(fx.tape.search('s1', '%')).toEqual([])
  })

  it('matches substrings inside words and CJK through the trigram index', () => {
    expect(fx.tape.search('s1', 'okeniz').length).toBe(5)
    expect(fx.tape.search('s1', '分词器').map((h) => [h.entryId, h.matchedBy])).toEqual([[4, 'fts']])
  })

  it('searches several tapes at once for history search', () => {
    const hits = fx.tape.searchMany(['s1', 'other'], 'another session')
    expect(hits.map((h) => h.tapeId)).toEqual(['other'])
    expect(fx.tape.searchMany(['s1', 'other'], 'tokenizer', { limit: 100 })).toHaveLength(6)
  })

  it('treats FTS5 syntax in a query as plain text', () => {
    fx.tape.append('s1', message('user', 'odd input: NEAR(a b) "quoted" col:value * ^start'))
    for (const query of [
      'NEAR(a b)',
      '"quoted"',
      'col:value',
      '*',
      '^start',
      '"; DROP TABLE tape_entries; --',
      'a OR',
      '('
    ]) {
      expect(() => fx.tape.search('s1', query)).not.toThrow()
    }
    expect(fx.tape.search('s1', 'NEAR(a').map((h) => h.entryId)).toEqual([6])
    expect(fx.tape.search('s1', '"quoted"').map((h) => h.entryId)).toEqual([6])
    expect(fx.tape.info('s1').entries).toBe(6)
  })

  it('reads a NUL byte in a query as a word break (FTS5 stops reading a query at NUL)', () => {
    const spaced = fx.tape.search('s1', 'refactor tokenizer')
    expect(spaced.map((h) => h.entryId).sort()).toEqual([1, 5])
    expect(fx.tape.search('s1', 'refactor\0tokenizer')).toEqual(spaced)
    expect(fx.tape.searchMany(['s1'], 'refactor\0\0tokenizer')).toEqual(spaced)
    expect(() => fx.tape.search('s1', '\0')).toThrow(expect.objectContaining({ code: 'invalid_query' }))
  })

  it('turns a query FTS5 rejects into invalid_query and leaves other SQLite failures alone', () => {
    const match = (query: string) => () =>
      runFtsQuery(() => fx.sqlite.db.prepare('SELECT rowid FROM tape_fts WHERE tape_fts MATCH ?').all(query))
    for (const query of ['"open', 'NEAR(', '*', 'AND', '"a\0b"'])
      expect(match(query)).toThrow(expect.objectContaining({ name: 'AppError', code: 'invalid_query' }))
    expect(() => runFtsQuery(() => fx.sqlite.db.prepare('SELECT * FROM no_such_table').all())).toThrow(
      expect.objectContaining({ name: 'SqliteError', code: 'SQLITE_ERROR' })
    )
  })

  it('rejects bad queries and bounds with clear errors', () => {
    expect(() => fx.tape.search('s1', '   ')).toThrow(expect.objectContaining({ code: 'invalid_query' }))
    expect(() => fx.tape.search('s1', 'x', { start: 'yesterday' as never })).toThrow(
      expect.objectContaining({ code: 'invalid_search_options' })
    )
    expect(() => fx.tape.search('s1', 'x', { start: 10, end: 5 })).toThrow(/start must not be after end/)
    expect(() => fx.tape.search('s1', 'x', { limit: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_search_options' })
    )
    expect(() => fx.tape.search('nope', 'x')).toThrow(expect.objectContaining({ code: 'tape_not_found' }))
  })
})
