import { AppError } from '@shared/errors'
import { FORK_DISCARD, FORK_MERGE, FORK_SEPARATOR, FORK_START, type TapeEntry } from '@shared/types/tape'
import type { TapeRow, TapeStore } from './store'

export interface ForkResult {
  tapeId: string
  forkId: string
  start: TapeEntry
}

export interface MergeResult {
  event: TapeEntry
  /** The copies written to the parent, in order; each carries `meta.fork` pointing back. */
  merged: TapeEntry[]
}

export function forkTapeId(parentTapeId: string, forkId: string): string {
  return `${parentTapeId}${FORK_SEPARATOR}${forkId}`
}

/**
 * A fork starts at the parent's head: the `fork/start` anchor records which entry that was, so
 * the child's view is "parent up to there, then the fork's own entries".
 */
export function createFork(
  store: TapeStore,
  parentTapeId: string,
  forkId: string,
  sessionId: string | null
): ForkResult {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(forkId)) {
    throw new AppError('invalid_fork_id', 'A fork id is 1-64 letters, digits, "_" or "-"')
  }
  const parent = store.requireTape(parentTapeId)
  const head = parent.head_entry_id
  const headEntry = head > 0 ? store.entry(parentTapeId, head) : undefined
  const tapeId = forkTapeId(parentTapeId, forkId)
  store.createTape({ id: tapeId, sessionId, parentTapeId, forkId, parentHeadEntryId: head })
  const [start] = store.insertEntries(tapeId, [
    {
      kind: 'anchor',
      name: FORK_START,
      payload: {
        name: FORK_START,
        state: { parentTapeId, forkId, parentHeadEntryId: head, parentHeadName: headEntry?.name ?? null }
      },
      meta: {},
      provenanceKey: 'fork:start'
    }
  ])
  return { tapeId, forkId, start }
}

/**
 * Copies the fork's result entries to the parent (new ids, provenance back to the fork) and
 * records a `fork/merge` event. Merging twice returns the first merge; merging a discarded
 * fork is refused. The fork tape is only read.
 */
export function mergeFork(
  store: TapeStore,
  forkTape: string,
  result: { entryIds?: readonly number[]; meta?: Record<string, unknown> }
): MergeResult {
  const fork = requireFork(store, forkTape)
  const parentTapeId = fork.parent_tape_id!
  const eventKey = `fork:${fork.fork_id}:merge`
  if (fork.fork_status === 'merged') {
    const event = store.byProvenance(parentTapeId, eventKey)!
    const mergedIds = (event.payload.data as { mergedEntryIds: number[] }).mergedEntryIds
    return { event, merged: mergedIds.map((id) => store.entry(parentTapeId, id)!) }
  }
  if (fork.fork_status === 'discarded') {
    throw new AppError('fork_closed', `Fork ${forkTape} was discarded and cannot be merged`)
  }
  const sources = selectResultEntries(store, forkTape, result.entryIds)
  const merged = store.insertEntries(
    parentTapeId,
    sources.map((source) => ({
      kind: source.kind,
      name: source.name,
      payload: source.payload,
      meta: { ...source.meta, fork: { tapeId: forkTape, forkId: fork.fork_id, entryId: source.entryId } },
      provenanceKey: `fork:${fork.fork_id}:merge:${source.entryId}`
    }))
  )
  const [event] = store.insertEntries(parentTapeId, [
    {
      kind: 'event',
      name: FORK_MERGE,
      payload: {
        name: FORK_MERGE,
        data: {
          ...(result.meta ?? {}),
          forkTapeId: forkTape,
          forkId: fork.fork_id,
          sourceEntryIds: sources.map((s) => s.entryId),
          mergedEntryIds: merged.map((m) => m.entryId),
          forkHeadEntryId: fork.head_entry_id
        }
      },
      meta: {},
      provenanceKey: eventKey
    }
  ])
  store.setForkStatus(forkTape, 'merged')
  return { event, merged }
}

/** Records that the parent dropped the fork. The fork tape stays as it is, for inspection. */
export function discardFork(
  store: TapeStore,
  forkTape: string,
  reason: string,
  meta: Record<string, unknown> = {}
): TapeEntry {
  const fork = requireFork(store, forkTape)
  const parentTapeId = fork.parent_tape_id!
  const eventKey = `fork:${fork.fork_id}:discard`
  if (fork.fork_status === 'discarded') return store.byProvenance(parentTapeId, eventKey)!
  if (fork.fork_status === 'merged') {
    throw new AppError('fork_closed', `Fork ${forkTape} was already merged and cannot be discarded`)
  }
  const [event] = store.insertEntries(parentTapeId, [
    {
      kind: 'event',
      name: FORK_DISCARD,
      payload: {
        name: FORK_DISCARD,
        data: {
          ...meta,
          forkTapeId: forkTape,
          forkId: fork.fork_id,
          reason,
          forkHeadEntryId: fork.head_entry_id
        }
      },
      meta: {},
      provenanceKey: eventKey
    }
  ])
  store.setForkStatus(forkTape, 'discarded')
  return event
}

function requireFork(store: TapeStore, forkTape: string): TapeRow {
  const fork = store.requireTape(forkTape)
  if (!fork.parent_tape_id || !fork.fork_id)
    throw new AppError('not_a_fork', `Tape ${forkTape} is not a fork`)
  return fork
}

/** Explicit ids, or by default the fork's final assistant answer. */
function selectResultEntries(store: TapeStore, forkTape: string, entryIds?: readonly number[]): TapeEntry[] {
  if (entryIds) {
    const unique = [...new Set(entryIds)].sort((a, b) => a - b)
    const entries = unique.map((id) => store.entry(forkTape, id))
    const missing = unique.filter((_, i) => !entries[i])
    if (missing.length)
      throw new AppError('entry_not_found', `Fork ${forkTape} has no entries ${missing.join(', ')}`)
    return entries as TapeEntry[]
  }
  const rows = store.db
    .prepare(
      `SELECT entry_id FROM tape_entries WHERE tape_id = ? AND kind = 'message'
       AND json_extract(payload_json, '$.role') = 'assistant' ORDER BY entry_id DESC LIMIT 1`
    )
    .get(forkTape) as { entry_id: number } | undefined
  return rows ? [store.entry(forkTape, rows.entry_id)!] : []
}
