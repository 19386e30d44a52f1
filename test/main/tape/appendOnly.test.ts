import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTapeFixture, message, type TapeFixture } from './helpers'

describe('tape append-only rules', () => {
  let fx: TapeFixture
  let clock = 1_000
  beforeEach(() => {
    clock = 1_000
    fx = openTapeFixture({ now: () => clock })
    fx.tape.createTape('s1')
  })
  afterEach(() => fx.close())

  it('rejects UPDATE of a tape entry with the trigger', () => {
    fx.tape.append('s1', message('user', 'hello'))
    expect(() =>
      fx.sqlite.db.prepare("UPDATE tape_entries SET payload_json = '{}' WHERE tape_id = 's1'").run()
    ).toThrow(/append-only/)
    expect(fx.tape.entry('s1', 1)!.payload.text).toBe('hello')
  })

  it('rejects DELETE of entries unless the whole tape is being purged', () => {
    fx.tape.append('s1', message('user', 'hello'))
    expect(() => fx.sqlite.db.prepare("DELETE FROM tape_entries WHERE tape_id = 's1'").run()).toThrow(
      /append-only/
    )
    expect(fx.tape.info('s1').entries).toBe(1)
    fx.tape.purge(['s1'])
    expect(fx.sqlite.db.prepare("SELECT count(*) AS n FROM tape_entries WHERE tape_id = 's1'").get()).toEqual(
      { n: 0 }
    )
    expect(fx.tape.hasTape('s1')).toBe(false)
  })

  it('numbers entries 1..n without gaps and keeps created_at monotonic when the clock goes back', () => {
    fx.tape.append('s1', [message('user', 'a'), message('assistant', 'b')])
    clock = 500 // the wall clock stepped backwards
    fx.tape.append('s1', message('user', 'c'))
    clock = 2_000
    fx.tape.appendEvent('s1', 'test/tick')
    const entries = fx.tape.entries('s1')
    expect(entries.map((e) => e.entryId)).toEqual([1, 2, 3, 4])
    expect(entries.map((e) => e.createdAt)).toEqual([1_000, 1_000, 1_000, 2_000])
  })

  it('makes re-appends with the same provenance key idempotent, also inside one batch', () => {
    const first = fx.tape.append('s1', { ...message('user', 'once'), provenanceKey: 'message:m1:r1' })[0]
    const again = fx.tape.append('s1', { ...message('user', 'changed?'), provenanceKey: 'message:m1:r1' })[0]
    expect(again).toEqual(first)
    const batch = fx.tape.append('s1', [
      { ...message('user', 'x'), provenanceKey: 'k2' },
      { ...message('user', 'y'), provenanceKey: 'k2' }
    ])
    expect(batch[1]).toEqual(batch[0])
    expect(fx.tape.info('s1').entries).toBe(2)
  })

  it('rejects invalid entries with a clear error and writes nothing', () => {
    fx.tape.append('s1', message('user', 'ok'))
    expect(() =>
      fx.tape.append('s1', [message('user', 'fine'), { kind: 'nonsense', payload: {} } as never])
    ).toThrow(expect.objectContaining({ code: 'invalid_tape_entry' }))
    expect(fx.tape.info('s1').entries).toBe(1)
    expect(() => fx.tape.append('missing', message('user', 'x'))).toThrow(
      expect.objectContaining({ code: 'tape_not_found' })
    )
  })

  it('rolls back the ids of a failed transaction, leaving no gap', () => {
    expect(() =>
      fx.sqlite.transaction(() => {
        fx.tape.append('s1', message('user', 'lost'))
        throw new Error('caller failed after appending')
      })
    ).toThrow('caller failed')
    fx.tape.append('s1', message('user', 'kept'))
    expect(fx.tape.entries('s1').map((e) => [e.entryId, e.payload.text])).toEqual([[1, 'kept']])
  })

  it('reports info and anchors', () => {
    fx.tape.appendAnchor('s1', 'session/start', { owner: 'human' })
    fx.tape.append('s1', [message('user', 'a'), message('assistant', 'b')])
    fx.tape.appendAnchor('s1', 'handoff/x', { summary: 's' })
    fx.tape.append('s1', message('user', 'c'))
    const info = fx.tape.info('s1')
    expect(info).toMatchObject({
      entries: 5,
      anchors: 2,
      entriesSinceLastAnchor: 1,
      fork: null,
      tokenizer: 'trigram'
    })
    expect(info.lastAnchor).toMatchObject({ entryId: 4, name: 'handoff/x' })
    expect(fx.tape.anchors('s1', 1).map((a) => a.name)).toEqual(['handoff/x'])
    expect(fx.tape.anchors('s1').map((a) => a.entryId)).toEqual([1, 4])
  })
})
