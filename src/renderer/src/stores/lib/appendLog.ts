import { toRaw } from 'vue'

/**
 * The pieces appended to a streaming block's text, kept beside the block so that a view can take
 * only what is new. Reading the growing text itself would cost a copy of all of it per delta:
 * V8 keeps `a += b` as a rope and copies the whole string into one on the first read (a slice,
 * a search, a comparison), so at 500 KB each delta paid for the whole reply.
 */
interface Log {
  /** Length of the text before the first logged piece. */
  base: number
  pieces: string[]
  /** End offset (in the text) of each piece. */
  ends: number[]
}

const logs = new WeakMap<object, Log>()
// Past this many pieces they are joined into one: bounded memory, O(1) amortised per piece.
const COMPACT_AT = 4096

/** Records that `piece` was appended to `owner`'s text, which was `lengthBefore` long. */
export function logAppend(owner: object, lengthBefore: number, piece: string): void {
  const raw = toRaw(owner)
  let log = logs.get(raw)
  const end = log ? (log.ends[log.ends.length - 1] ?? log.base) : lengthBefore
  if (!log || end !== lengthBefore) {
    log = { base: lengthBefore, pieces: [], ends: [] }
    logs.set(raw, log)
  }
  if (log.pieces.length >= COMPACT_AT) {
    log.pieces = [log.pieces.join('')]
    log.ends = [log.ends[log.ends.length - 1]]
  }
  log.pieces.push(piece)
  log.ends.push(lengthBefore + piece.length)
}

/** Forgets `owner`'s pieces: its text was replaced, not appended to. */
export function forgetAppends(owner: object): void {
  logs.delete(toRaw(owner))
}

/**
 * The text appended to `owner` between offsets `from` and `to`, or null when the log does not
 * cover exactly that (nothing logged, the text was replaced, or `to` is not its current end):
 * the caller then reads the whole text.
 */
export function readAppended(owner: object, from: number, to: number): string | null {
  const log = logs.get(toRaw(owner))
  if (!log) return null
  const end = log.ends[log.ends.length - 1] ?? log.base
  if (to !== end || from < log.base || from > to) return null
  if (from === to) return ''
  // The first piece that ends after `from`: binary search, since a view reads only the last few.
  let low = 0
  let high = log.ends.length - 1
  while (low < high) {
    const mid = (low + high) >> 1
    if (log.ends[mid] > from) high = mid
    else low = mid + 1
  }
  const start = low === 0 ? log.base : log.ends[low - 1]
  const first = log.pieces[low].slice(from - start)
  return low === log.pieces.length - 1 ? first : first + log.pieces.slice(low + 1).join('')
}
