/**
 * How a markdown view renders a burst of finished chunks (see MarkdownView): in slices sized in
 * characters of markdown, adapted to what the last slice cost until the task after its frame
 * (the markdown, and the DOM, style, layout and paint it brought) to aim at SLICE_TARGET_MS.
 */
export const SLICE_TARGET_MS = 12
// The floor keeps a slice worth its frame when a loaded machine makes every slice look slow.
export const SLICE_CHARS = { min: 600, start: 1500, max: 50_000 }
// While it streams, a view changes at most every LIVE_INTERVAL_MS (about the host's delta
// cadence) and its rendering takes at most LIVE_SHARE of the main thread: after a slice that
// cost c ms the next starts c / LIVE_SHARE ms after it did (at most LIVE_PAUSE_MAX_MS). Deltas
// arriving meanwhile are merged into it. A fast provider's stream then shows in fewer, fuller
// updates, each a frame of style, layout, paint and raster less, leaving keys typed meanwhile,
// and the compositing and raster that share the CPU, the rest of it.
export const LIVE_INTERVAL_MS = 33
export const LIVE_SHARE = 1 / 3
export const LIVE_PAUSE_MAX_MS = 64

/**
 * Characters for the next slice, from the last one's size and cost. It at most doubles per
 * slice: a cheap small update (a delta to the tail) says little about a burst's cost, and
 * scaling it up at once made the burst's first slice one long task.
 */
export function nextSliceChars(current: number, chars: number, costMs: number): number {
  if (chars <= 0 || costMs <= 0) return current
  const ceiling = Math.min(SLICE_CHARS.max, 2 * Math.max(current, chars))
  return Math.round(Math.min(ceiling, Math.max(SLICE_CHARS.min, (chars * SLICE_TARGET_MS) / costMs)))
}

/** Milliseconds to wait from `now` before the next slice of a view (0: go on now). */
export function pauseBeforeNextSlice(slice: {
  live: boolean
  startedAt: number
  costMs: number
  now: number
}): number {
  if (!slice.live) return 0
  const interval = Math.min(LIVE_PAUSE_MAX_MS, Math.max(LIVE_INTERVAL_MS, slice.costMs / LIVE_SHARE))
  return Math.max(0, slice.startedAt + interval - slice.now)
}
