import { AppError } from '@shared/errors'
import { HANDOFF_PREFIXES, type TapeEntry } from '@shared/types/tape'
import type { TapeStore } from './store'

const RECONSTRUCTION_PREFIXES = [...HANDOFF_PREFIXES, 'compaction/', 'summary/']
const EXTRACT_MAX_CHARS = 4_000
const EXTRACT_LINE_CHARS = 240

export interface HandoffInput {
  name?: string
  summary?: string
  /** Extra state for the next context (open tasks, file paths…). */
  state?: Record<string, unknown>
  /**
   * Without a summary the history before the anchor would silently leave the model's context.
   * `refuse` (default) throws; `extract` writes a plain digest of the entries instead.
   */
  whenNoSummary?: 'refuse' | 'extract'
}

export function normalizeHandoffName(name: string | undefined): string {
  const trimmed = (name ?? '').trim()
  if (!trimmed) return 'handoff/manual'
  if (HANDOFF_PREFIXES.some((prefix) => trimmed.startsWith(prefix))) return trimmed
  return `handoff/${trimmed}`
}

export function isReconstructionAnchor(name: string | null): boolean {
  return !!name && RECONSTRUCTION_PREFIXES.some((prefix) => name.startsWith(prefix))
}

/** The latest anchor after which the model's context restarts, if any. */
export function lastReconstructionAnchor(store: TapeStore, tapeId: string): TapeEntry | undefined {
  const row = store.db
    .prepare(
      `SELECT entry_id FROM tape_entries WHERE tape_id = ? AND kind = 'anchor'
       AND (${RECONSTRUCTION_PREFIXES.map(() => 'name LIKE ?').join(' OR ')}) ORDER BY entry_id DESC LIMIT 1`
    )
    .get(tapeId, ...RECONSTRUCTION_PREFIXES.map((p) => `${p}%`)) as { entry_id: number } | undefined
  return row ? store.entry(tapeId, row.entry_id) : undefined
}

/**
 * Writes a handoff anchor: the next context starts after it, carrying the summary. The anchor
 * names the range it summarises so nothing leaves the context without a trace.
 */
export function writeHandoff(store: TapeStore, tapeId: string, input: HandoffInput): TapeEntry {
  const tape = store.requireTape(tapeId)
  const name = normalizeHandoffName(input.name)
  const previous = lastReconstructionAnchor(store, tapeId)
  const fromEntryId = (previous?.entryId ?? 0) + 1
  const toEntryId = tape.head_entry_id
  let summary = input.summary?.trim() ?? ''
  let summarySource: 'given' | 'extracted' = 'given'
  if (!summary) {
    if (input.whenNoSummary !== 'extract') {
      throw new AppError(
        'handoff_summary_required',
        'A handoff needs a summary of the history it replaces; give one or ask for an extracted digest'
      )
    }
    summary = extractDigest(store, tapeId, fromEntryId, toEntryId)
    summarySource = 'extracted'
  }
  const [anchor] = store.insertEntries(tapeId, [
    {
      kind: 'anchor',
      name,
      payload: {
        name,
        state: {
          ...(input.state ?? {}),
          summary,
          summarySource,
          range: { fromEntryId, toEntryId },
          cursorEntryId: toEntryId
        }
      },
      meta: { handoff: true },
      provenanceKey: null
    }
  ])
  return anchor
}

/** A model-free digest: one line per message or tool fact, newest kept when it runs long. */
function extractDigest(store: TapeStore, tapeId: string, fromEntryId: number, toEntryId: number): string {
  const lines: string[] = []
  for (const entry of store.list(tapeId, { afterEntryId: fromEntryId - 1, maxEntryId: toEntryId })) {
    if (entry.kind === 'anchor' || entry.kind === 'event') continue
    const label =
      entry.kind === 'message' ? String(entry.payload.role ?? 'message') : `${entry.kind} ${entry.name ?? ''}`
    const text = flatten(entry.payload).replace(/\s+/g, ' ').trim()
    lines.push(`- #${entry.entryId} ${label}: ${text.slice(0, EXTRACT_LINE_CHARS)}`)
  }
  const header = `Digest of entries ${fromEntryId}-${toEntryId} (extracted, no model summary):`
  if (lines.length === 0) return `${header}\n(no messages)`
  let body = lines.join('\n')
  if (body.length > EXTRACT_MAX_CHARS) body = `…\n${body.slice(body.length - EXTRACT_MAX_CHARS)}`
  return `${header}\n${body}`
}

function flatten(payload: Record<string, unknown>): string {
  const parts: string[] = []
  const visit = (value: unknown): void => {
    if (typeof value === 'string') parts.push(value)
    else if (Array.isArray(value)) value.forEach(visit)
    else if (value && typeof value === 'object') Object.values(value).forEach(visit)
  }
  // Ids and roles are noise in a digest; the text is what matters.
  for (const [key, value] of Object.entries(payload)) if (!/id$|^role$|^status$/i.test(key)) visit(value)
  return parts.join(' ')
}
