import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTapeFixture, message, type TapeFixture } from './helpers'

describe('tape handoff', () => {
  let fx: TapeFixture
  beforeEach(() => {
    fx = openTapeFixture({ now: () => 1_000 }) // every entry in the same millisecond
    fx.tape.createTape('s1')
    fx.tape.append('s1', [
      message('user', 'build the parser'),
      message('assistant', 'parser built in src/parser.ts')
    ])
  })
  afterEach(() => fx.close())

  it('refuses a handoff without a summary by default and writes nothing', () => {
    expect(() => fx.tape.handoff('s1', { name: 'next-phase' })).toThrow(
      expect.objectContaining({ code: 'handoff_summary_required' })
    )
    expect(() => fx.tape.handoff('s1', { summary: '   ' })).toThrow(
      expect.objectContaining({ code: 'handoff_summary_required' })
    )
    expect(fx.tape.info('s1').entries).toBe(2)
  })

  it('writes a given summary with the range it replaces', () => {
    const anchor = fx.tape.handoff('s1', { name: 'next-phase', summary: 'Parser done; next: tests.' })
    expect(anchor).toMatchObject({ kind: 'anchor', name: 'handoff/next-phase', meta: { handoff: true } })
    expect(anchor.payload.state).toMatchObject({
      summary: 'Parser done; next: tests.',
      summarySource: 'given',
      range: { fromEntryId: 1, toEntryId: 2 },
      cursorEntryId: 2
    })
  })

  it('writes an extracted digest when asked, covering only entries since the last handoff', () => {
    fx.tape.handoff('s1', { summary: 'first phase' })
    fx.tape.append('s1', [message('user', 'now add tests'), message('assistant', 'tests added')])
    const anchor = fx.tape.handoff('s1', { name: 'auto_handoff/context_overflow', whenNoSummary: 'extract' })
    expect(anchor.name).toBe('auto_handoff/context_overflow')
    const state = anchor.payload.state as { summary: string; summarySource: string; range: unknown }
    expect(state.summarySource).toBe('extracted')
    expect(state.range).toEqual({ fromEntryId: 4, toEntryId: 5 })
    expect(state.summary).toContain('#4 user: now add tests')
    expect(state.summary).toContain('#5 assistant: tests added')
    expect(state.summary).not.toContain('parser')
  })

  it('allows two handoffs in the same millisecond', () => {
    const a = fx.tape.handoff('s1', { summary: 'one' })
    const b = fx.tape.handoff('s1', { summary: 'two' })
    expect([a.entryId, b.entryId]).toEqual([3, 4])
    expect(fx.tape.info('s1').lastAnchor?.name).toBe('handoff/manual')
  })
})
