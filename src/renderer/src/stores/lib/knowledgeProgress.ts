import type { KnowledgeBaseView, KnowledgeProgress } from '@shared/types/knowledge'

/** A base's run as its progress bar shows it. */
export interface ShownProgress {
  progress: KnowledgeProgress
  /** 0..1, or null while the run is still finding its files (an indeterminate bar). */
  fraction: number | null
  /** The run has ended (done, cancelled or failed): the bar shows its end until the next run. */
  ended: boolean
}

const ENDED = new Set<KnowledgeProgress['phase']>(['done', 'cancelled', 'failed'])

/**
 * How far a run is: files done of those found, the embedded chunks filling in between two files.
 * A finished run is whole; a run still scanning with no file found yet has no fraction.
 */
export function progressFraction(progress: KnowledgeProgress): number | null {
  if (progress.phase === 'done') return 1
  if (progress.filesTotal === 0) return progress.phase === 'scanning' ? null : 0
  const files = Math.min(progress.filesDone, progress.filesTotal)
  // The embedded share of the chunks found so far moves the bar within the file being done,
  // never past its mark.
  const within =
    progress.chunksTotal > 0 && files < progress.filesTotal
      ? Math.min(1, progress.chunksDone / progress.chunksTotal) * 0.99
      : 0
  return Math.min(1, (files + within) / progress.filesTotal)
}

/** A new run began: after an ended one, or its counts went back to the start. */
function startsNewRun(held: ShownProgress, next: KnowledgeProgress): boolean {
  if (held.ended) return !ENDED.has(next.phase)
  return next.filesDone < held.progress.filesDone && next.phase === 'scanning'
}

/**
 * Folds a progress event into what a base's bar shows: within one run the bar never moves back
 * (files found late grow the total), an ended run shows its end until the next run starts, and
 * a base's events never touch another base's bar.
 */
export function foldProgress(
  held: Readonly<Record<string, ShownProgress>>,
  next: KnowledgeProgress
): Record<string, ShownProgress> {
  const before = held[next.baseId]
  const ended = ENDED.has(next.phase)
  const fraction = progressFraction(next)
  const fresh = !before || startsNewRun(before, next)
  const kept =
    fresh || next.phase === 'failed' || next.phase === 'cancelled'
      ? fraction
      : fraction === null
        ? before.fraction
        : Math.max(fraction, before.fraction ?? 0)
  return { ...held, [next.baseId]: { progress: next, fraction: kept, ended } }
}

/** Drops the bars of bases that are gone from the list (removed in this or another window). */
export function pruneProgress(
  held: Readonly<Record<string, ShownProgress>>,
  bases: readonly KnowledgeBaseView[]
): Record<string, ShownProgress> {
  const ids = new Set(bases.map((b) => b.id))
  return Object.fromEntries(Object.entries(held).filter(([id]) => ids.has(id)))
}

/** Whether a base is busy: its status says so, or a run of it is under way here. */
export function isIndexing(base: KnowledgeBaseView, shown: ShownProgress | undefined): boolean {
  if (base.status === 'indexing' || base.status === 'queued') return true
  return shown !== undefined && !shown.ended
}

/** A size in bytes as people read it (1 decimal from KB up). */
export function formatBytes(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  const digits = unit === 0 ? 0 : 1
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${units[unit]}`
}
