import { lstat, realpath } from 'node:fs/promises'
import { ToolError } from '../toolPresenter/agentTools/defineTool'
import { realInside } from '../toolPresenter/agentTools/safeFile'
import { readVerified } from './putBack'
import type { FileVersion, TurnFileDiff } from '@shared/types/checkpoints'
import { SHELL_CAPTURE_MAX_FILE_BYTES } from '../toolPresenter/agentTools/shellChanges/limits'

/** A file's content at one moment of the tape: a snapshot's previous content or what a revert replaced. */
export interface ContentFact {
  entryId: number
  path: string
  content: string | null
  notKept?: 'too_large' | 'binary'
}

/** Bigger current files are not shown (the same limit as shell capture). */
export const DIFF_MAX_FILE_BYTES = SHELL_CAPTURE_MAX_FILE_BYTES

/** The facts of a `file/revert` payload: each file's content just before the revert. */
export function revertFacts(entryId: number, data: unknown): ContentFact[] {
  const replaced = (data as { replaced?: unknown } | null)?.replaced
  if (!Array.isArray(replaced)) return []
  return replaced.flatMap((r: { path?: unknown; contentBeforeRevert?: unknown }) =>
    typeof r?.path === 'string' &&
    (typeof r.contentBeforeRevert === 'string' || r.contentBeforeRevert === null)
      ? [{ entryId, path: r.path, content: r.contentBeforeRevert }]
      : []
  )
}

/**
 * The diff of one file a turn changed. Before: the turn's first snapshot of it. After: the
 * content the next fact on the tape saw (a later turn's snapshot, a revert), or the file on
 * disk when nothing touched it since.
 */
export async function turnFileDiff(
  workspaceDir: string,
  path: string,
  own: readonly ContentFact[],
  all: readonly ContentFact[]
): Promise<TurnFileDiff> {
  const mine = own.filter((f) => f.path === path)
  const lastOwn = mine.at(-1)?.entryId ?? Infinity
  const next = all.find((f) => f.path === path && f.entryId > lastOwn)
  return {
    path,
    before: versionOf(mine[0]),
    after: next ? versionOf(next) : await versionOnDisk(path, workspaceDir)
  }
}

function versionOf(fact: ContentFact | undefined): FileVersion {
  if (!fact) return { state: 'absent', content: null }
  if (fact.notKept) return { state: fact.notKept, content: null }
  return fact.content === null ? { state: 'absent', content: null } : { state: 'text', content: fact.content }
}

/** The file as it is now, read without following a link and only inside the workspace. */
async function versionOnDisk(path: string, workspaceDir: string): Promise<FileVersion> {
  const root = await realpath(workspaceDir).catch(() => null)
  const place = root ? await realInside(root, workspaceDir, path) : null
  if (!place || 'refused' in place) return { state: 'not_followed', content: null }
  try {
    // Size first (lstat follows nothing), so a huge file is not read to be refused.
    const info = await lstat(place.real).catch(() => null)
    if (info?.isFile() && info.size > DIFF_MAX_FILE_BYTES) return { state: 'too_large', content: null }
    const { content, links } = await readVerified(place.real, path)
    if (links > 1) return { state: 'not_followed', content: null }
    if (content === null) return { state: 'absent', content: null }
    if (Buffer.byteLength(content) > DIFF_MAX_FILE_BYTES) return { state: 'too_large', content: null }
    if (content.includes('\0')) return { state: 'binary', content: null }
    return { state: 'text', content }
  } catch (error) {
    if (error instanceof ToolError && error.code === 'path_changed')
      return { state: 'not_followed', content: null }
    throw error
  }
}
