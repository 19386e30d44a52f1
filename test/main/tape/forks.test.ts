import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTapeFixture, message, type TapeFixture } from './helpers'

describe('tape forks', () => {
  let fx: TapeFixture
  beforeEach(() => {
    fx = openTapeFixture()
    fx.tape.createTape('parent')
    fx.tape.appendAnchor('parent', 'session/start', { owner: 'human' })
    fx.tape.append('parent', [message('user', 'research X'), message('assistant', 'delegating')])
  })
  afterEach(() => fx.close())

  it('starts a fork with a fork/start anchor pointing at the parent head', () => {
    const fork = fx.tape.fork('parent', { forkId: 'f1' })
    expect(fork.tapeId).toBe('parent::fork::f1')
    expect(fork.start).toMatchObject({ entryId: 1, kind: 'anchor', name: 'fork/start' })
    expect(fork.start.payload.state).toMatchObject({
      parentTapeId: 'parent',
      forkId: 'f1',
      parentHeadEntryId: 3
    })
    expect(fx.tape.info(fork.tapeId).fork).toEqual({
      parentTapeId: 'parent',
      forkId: 'f1',
      status: 'open',
      parentHeadEntryId: 3
    })
    // The parent moves on; the fork's inherited view stops at the fork point.
    fx.tape.append('parent', message('user', 'later in parent'))
    fx.tape.append(fork.tapeId, message('assistant', 'child work'))
    const view = fx.tape.inheritedView(fork.tapeId).map((e) => `${e.tapeId}#${e.entryId}`)
    expect(view).toEqual(['parent#1', 'parent#2', 'parent#3', 'parent::fork::f1#1', 'parent::fork::f1#2'])
    expect(() => fx.tape.fork('parent', { forkId: 'f1' })).toThrow(
      expect.objectContaining({ code: 'tape_exists' })
    )
    expect(() => fx.tape.fork('parent', { forkId: 'bad id!' })).toThrow(
      expect.objectContaining({ code: 'invalid_fork_id' })
    )
  })

  it('merges the final answer into the parent with provenance, once', () => {
    const { tapeId } = fx.tape.fork('parent', { forkId: 'f1' })
    fx.tape.append(tapeId, [message('user', 'handoff: research X'), message('assistant', 'thinking...')])
    fx.tape.append(tapeId, { kind: 'tool_call', name: 'read', payload: { params: '{}' } })
    fx.tape.append(tapeId, message('assistant', 'X is 42'))
    const forkBefore = fx.tape.entries(tapeId)

    const { event, merged } = fx.tape.merge(tapeId, { meta: { taskId: 't1' } })
    expect(merged).toHaveLength(1)
    expect(merged[0]).toMatchObject({
      tapeId: 'parent',
      entryId: 4,
      kind: 'message',
      payload: { role: 'assistant', text: 'X is 42' }
    })
    expect(merged[0].meta.fork).toEqual({ tapeId, forkId: 'f1', entryId: 5 })
    expect(merged[0].provenanceKey).toBe('fork:f1:merge:5')
    expect(event).toMatchObject({ entryId: 5, kind: 'event', name: 'fork/merge' })
    expect(event.payload.data).toMatchObject({
      forkTapeId: tapeId,
      sourceEntryIds: [5],
      mergedEntryIds: [4],
      taskId: 't1'
    })

    const parentView = fx.tape.entries('parent')
    expect(parentView.map((e) => e.name)).toEqual([
      'session/start',
      'message/user',
      'message/assistant',
      'message/assistant',
      'fork/merge'
    ])
    expect(fx.tape.entries(tapeId)).toEqual(forkBefore) // the fork itself is untouched
    expect(fx.tape.info(tapeId).fork?.status).toBe('merged')

    const again = fx.tape.merge(tapeId)
    expect(again.event).toEqual(event)
    expect(fx.tape.info('parent').entries).toBe(5)
    expect(() => fx.tape.discard(tapeId, 'too late')).toThrow(
      expect.objectContaining({ code: 'fork_closed' })
    )
  })

  it('merges chosen entries in order', () => {
    const { tapeId } = fx.tape.fork('parent', { forkId: 'f2' })
    fx.tape.append(tapeId, [message('assistant', 'part 1'), message('assistant', 'part 2')])
    const { merged } = fx.tape.merge(tapeId, { entryIds: [3, 2] })
    expect(merged.map((e) => e.payload.text)).toEqual(['part 1', 'part 2'])
    expect(() => fx.tape.merge('parent')).toThrow(expect.objectContaining({ code: 'not_a_fork' }))
  })

  it('refuses to merge ids the fork does not have', () => {
    const { tapeId } = fx.tape.fork('parent', { forkId: 'f3' })
    expect(() => fx.tape.merge(tapeId, { entryIds: [1, 9] })).toThrow(
      expect.objectContaining({ code: 'entry_not_found' })
    )
    expect(fx.tape.info('parent').entries).toBe(3)
    expect(fx.tape.info(tapeId).fork?.status).toBe('open')
  })

  it('discards with an event in the parent; the fork tape stays intact and out of the parent view', () => {
    const { tapeId } = fx.tape.fork('parent', { forkId: 'f4' })
    fx.tape.append(tapeId, message('assistant', 'secret child output'))
    const forkBefore = fx.tape.entries(tapeId)
    const event = fx.tape.discard(tapeId, 'timeout', { taskId: 't9' })
    expect(event).toMatchObject({ tapeId: 'parent', name: 'fork/discard' })
    expect(event.payload.data).toMatchObject({
      forkTapeId: tapeId,
      reason: 'timeout',
      taskId: 't9',
      forkHeadEntryId: 2
    })
    expect(fx.tape.entries(tapeId)).toEqual(forkBefore)
    expect(
      fx.tape.entries('parent').some((e) => JSON.stringify(e.payload).includes('secret child output'))
    ).toBe(false)
    expect(fx.tape.search('parent', 'secret child')).toEqual([])
    expect(fx.tape.discard(tapeId, 'again')).toEqual(event)
    expect(() => fx.tape.merge(tapeId)).toThrow(expect.objectContaining({ code: 'fork_closed' }))
    expect(() => fx.tape.discard(tapeId, '  ')).toThrow(/reason/)
  })

  it('purging a tape removes its forks, nested ones too', () => {
    const f = fx.tape.fork('parent', { forkId: 'a' })
    const ff = fx.tape.fork(f.tapeId, { forkId: 'b' })
    expect(ff.tapeId).toBe('parent::fork::a::fork::b')
    fx.tape.createTape('unrelated')
    expect(fx.tape.purge(['parent']).sort()).toEqual([
      'parent',
      'parent::fork::a',
      'parent::fork::a::fork::b'
    ])
    expect(fx.tape.hasTape(ff.tapeId)).toBe(false)
    expect(fx.tape.hasTape('unrelated')).toBe(true)
    expect(
      fx.sqlite.db.prepare("SELECT count(*) AS n FROM tape_entries WHERE tape_id LIKE 'parent%'").get()
    ).toEqual({ n: 0 })
  })
})
