import { describe, expect, it } from 'vitest'
import type { KnowledgeBaseView, KnowledgeProgress } from '@shared/types/knowledge'
import {
  foldProgress,
  formatBytes,
  isIndexing,
  progressFraction,
  pruneProgress,
  type ShownProgress
} from '@renderer/stores/lib/knowledgeProgress'

const A = 'kb_aaaaaaaa'
const B = 'kb_bbbbbbbb'

function event(patch: Partial<KnowledgeProgress>): KnowledgeProgress {
  return {
    baseId: A,
    phase: 'reading',
    filesDone: 0,
    filesTotal: 0,
    chunksDone: 0,
    chunksTotal: 0,
    currentFile: null,
    ...patch
  }
}

function fold(...events: KnowledgeProgress[]): Record<string, ShownProgress> {
  return events.reduce<Record<string, ShownProgress>>((held, next) => foldProgress(held, next), {})
}

describe('a knowledge base’s progress bar', () => {
  it('has no fraction while files are still being found, then counts files and fills in with embedded chunks', () => {
    expect(progressFraction(event({ phase: 'scanning' }))).toBeNull()
    expect(progressFraction(event({ filesDone: 1, filesTotal: 4 }))).toBe(0.25)
    const within = progressFraction(
      event({ phase: 'embedding', filesDone: 1, filesTotal: 4, chunksDone: 5, chunksTotal: 10 })
    )
    // Between the first file's mark and the second's, never at it.
    expect(within).toBeGreaterThan(0.25)
    expect(within).toBeLessThan(0.5)
    expect(progressFraction(event({ phase: 'done', filesDone: 3, filesTotal: 4 }))).toBe(1)
  })

  it('never moves back within a run when files found late grow the total', () => {
    const shown = fold(
      event({ filesDone: 2, filesTotal: 4 }),
      // A folder scan found more files: 2 of 10 is less than 2 of 4, the bar stays.
      event({ filesDone: 2, filesTotal: 10 })
    )
    expect(shown[A].fraction).toBe(0.5)
    expect(shown[A].progress.filesTotal).toBe(10)
    expect(
      fold(event({ filesDone: 2, filesTotal: 4 }), event({ filesDone: 8, filesTotal: 10 }))[A].fraction
    ).toBe(0.8)
  })

  it('shows a finished run whole and ended, and starts from nothing on the next run', () => {
    const done = fold(
      event({ filesDone: 3, filesTotal: 4 }),
      event({ phase: 'done', filesDone: 4, filesTotal: 4 })
    )
    expect(done[A]).toMatchObject({ fraction: 1, ended: true })
    const again = foldProgress(done, event({ phase: 'scanning' }))
    expect(again[A]).toMatchObject({ fraction: null, ended: false })
    const next = foldProgress(again, event({ filesDone: 1, filesTotal: 10 }))
    expect(next[A].fraction).toBe(0.1)
  })

  it('a stopped or failed run shows where it stopped, not a full bar', () => {
    const cancelled = fold(
      event({ filesDone: 3, filesTotal: 10 }),
      event({ phase: 'cancelled', filesDone: 3, filesTotal: 10 })
    )
    expect(cancelled[A]).toMatchObject({ fraction: 0.3, ended: true })
    const failed = fold(
      event({ filesDone: 5, filesTotal: 10 }),
      event({ phase: 'failed', filesDone: 5, filesTotal: 10 })
    )
    expect(failed[A]).toMatchObject({ fraction: 0.5, ended: true })
  })

  it('keeps each base’s bar apart and drops the bars of removed bases', () => {
    const shown = fold(
      event({ filesDone: 1, filesTotal: 2 }),
      event({ baseId: B, filesDone: 3, filesTotal: 4 })
    )
    expect(shown[A].fraction).toBe(0.5)
    expect(shown[B].fraction).toBe(0.75)
    const onlyB = pruneProgress(shown, [{ id: B } as KnowledgeBaseView])
    expect(Object.keys(onlyB)).toEqual([B])
  })

  it('counts a base as busy while main says so or a run of it is under way', () => {
    const base = { id: A, status: 'idle' } as KnowledgeBaseView
    expect(isIndexing(base, undefined)).toBe(false)
    expect(isIndexing({ ...base, status: 'queued' }, undefined)).toBe(true)
    const running = fold(event({ filesDone: 1, filesTotal: 2 }))[A]
    expect(isIndexing(base, running)).toBe(true)
    const ended = fold(event({ phase: 'done', filesDone: 2, filesTotal: 2 }))[A]
    expect(isIndexing(base, ended)).toBe(false)
  })

  it('writes sizes as people read them', () => {
    expect(formatBytes(512, 'en-US')).toBe('512 B')
    expect(formatBytes(1536, 'en-US')).toBe('1.5 KB')
    expect(formatBytes(5 * 1024 * 1024, 'en-US')).toBe('5 MB')
  })
})
