import { describe, expect, it } from 'vitest'
import {
  LIVE_INTERVAL_MS,
  LIVE_PAUSE_MAX_MS,
  nextSliceChars,
  pauseBeforeNextSlice,
  SLICE_CHARS,
  SLICE_TARGET_MS
} from '@renderer/components/chat/lib/slicePacing'

describe('pacing the slices of a streaming reply', () => {
  it('starts the next slice of a live reply no sooner than 33 ms after the last one started', () => {
    // A cheap slice (a small delta): the next waits for the interval, not just the next frame.
    expect(pauseBeforeNextSlice({ live: true, startedAt: 1000, costMs: 4, now: 1010 })).toBe(
      1000 + LIVE_INTERVAL_MS - 1010
    )
    // Already that late: at once.
    expect(pauseBeforeNextSlice({ live: true, startedAt: 1000, costMs: 4, now: 1040 })).toBe(0)
  })

  it('leaves two thirds of the main thread between costly slices, waiting at most 64 ms', () => {
    // 15 ms of work: the next starts 45 ms after this one started.
    expect(pauseBeforeNextSlice({ live: true, startedAt: 1000, costMs: 15, now: 1020 })).toBe(25)
    // A slice that looked very slow (a loaded machine): the stream still moves on.
    expect(pauseBeforeNextSlice({ live: true, startedAt: 1000, costMs: 80, now: 1030 })).toBe(
      1000 + LIVE_PAUSE_MAX_MS - 1030
    )
  })

  it('does not pause once the reply is no longer streaming (its end renders a slice per frame)', () => {
    expect(pauseBeforeNextSlice({ live: false, startedAt: 1000, costMs: 15, now: 1005 })).toBe(0)
  })

  it('sizes the next slice to aim at the target cost, within its bounds', () => {
    expect(nextSliceChars(1500, 3000, SLICE_TARGET_MS * 2)).toBe(1500)
    expect(nextSliceChars(1500, 3000, SLICE_TARGET_MS / 2)).toBe(6000)
    // A slice made slow by a loaded machine does not shrink the next below the floor.
    expect(nextSliceChars(1500, 700, 400)).toBe(SLICE_CHARS.min)
    expect(nextSliceChars(30_000, 40_000, 1)).toBe(SLICE_CHARS.max)
    // A cheap small update (a delta to the tail) at most doubles the next slice, so a burst
    // arriving after it does not become one long task.
    expect(nextSliceChars(1500, 200, 0.1)).toBe(3000)
    // Nothing rendered or nothing measured: unchanged.
    expect(nextSliceChars(2222, 0, 10)).toBe(2222)
  })
})
