import { z } from 'zod'
import { AppError } from '@shared/errors'
import { TapeContextOptions, type TapeContextEntry, type TapeContextResult } from '@shared/types/tape'
import { searchBody } from './searchText'
import type { EntryRow, TapeStore } from './store'

const TRUNCATION_MARK = '...'
/** An entry squeezed below this many bytes by the total cap is left out rather than shown as a stub. */
const MIN_USEFUL_BYTES = 64

/**
 * The entries asked for plus their neighbours, within count and byte caps. Requested entries
 * are placed first so caps cut neighbours before them; whatever does not fit is listed in
 * `omittedEntryIds`, never dropped silently.
 */
export function tapeContext(
  store: TapeStore,
  tapeId: string,
  entryIds: readonly number[],
  rawOptions: TapeContextOptions = {}
): TapeContextResult {
  const parsed = TapeContextOptions.safeParse(rawOptions)
  if (!parsed.success) throw new AppError('invalid_context_options', z.prettifyError(parsed.error))
  const options = parsed.data
  const tape = store.requireTape(tapeId)
  const requested = [...new Set(entryIds)].filter((id) => Number.isInteger(id) && id > 0)
  if (requested.length === 0) throw new AppError('invalid_context_options', 'Give at least one entry id')
  if (requested.length > 100) throw new AppError('invalid_context_options', 'Ask for at most 100 entry ids')

  const present = requested.filter((id) => id <= tape.head_entry_id)
  const neighbours = new Set<number>()
  for (const id of present) {
    for (
      let n = Math.max(1, id - options.before);
      n <= Math.min(tape.head_entry_id, id + options.after);
      n++
    ) {
      if (!present.includes(n)) neighbours.add(n)
    }
  }
  const byDistance = [...neighbours].sort((a, b) => distance(a, present) - distance(b, present) || a - b)
  const order = [...present, ...byDistance]
  const rows = new Map(store.entryRows(tapeId, order).map((row) => [row.entry_id, row]))

  const entries: TapeContextEntry[] = []
  const omitted: number[] = []
  let totalBytes = 0
  for (const id of order) {
    const row = rows.get(id)
    if (!row) continue
    const remaining = options.maxTotalBytes - totalBytes
    const cap = Math.min(options.maxBytesPerEntry, remaining)
    if (entries.length >= options.limit || cap < MIN_USEFUL_BYTES) {
      omitted.push(id)
      continue
    }
    const evidence = truncateUtf8(renderEvidence(row), cap)
    totalBytes += evidence.bytes
    entries.push({
      entryId: row.entry_id,
      kind: row.kind,
      name: row.name,
      createdAt: row.created_at,
      requested: present.includes(id),
      evidence
    })
  }
  entries.sort((a, b) => a.entryId - b.entryId)
  return {
    tapeId,
    requestedEntryIds: requested,
    matchedEntryIds: present.filter((id) => rows.has(id)),
    omittedEntryIds: omitted.sort((a, b) => a - b),
    totalBytes,
    entries
  }
}

function distance(id: number, anchors: readonly number[]): number {
  return Math.min(...anchors.map((a) => Math.abs(a - id)))
}

/** Anchors and events show their state as JSON; messages and tool facts show their text. */
function renderEvidence(row: EntryRow): string {
  if (row.kind === 'anchor' || row.kind === 'event') return row.payload_json
  return searchBody(row.search_text)
}

export function truncateUtf8(
  text: string,
  maxBytes: number
): { text: string; bytes: number; truncated: boolean } {
  const encoded = Buffer.from(text, 'utf8')
  if (encoded.length <= maxBytes) return { text, bytes: encoded.length, truncated: false }
  let cut = Math.max(0, maxBytes - Buffer.byteLength(TRUNCATION_MARK))
  // Never split a multi-byte character: back up to the start of the one being cut.
  while (cut > 0 && (encoded[cut] & 0xc0) === 0x80) cut--
  const kept = encoded.subarray(0, cut).toString('utf8') + TRUNCATION_MARK
  return { text: kept, bytes: Buffer.byteLength(kept), truncated: true }
}
