import { realpath } from 'node:fs/promises'
import type { RevertResult, SkipReason } from '@shared/types/checkpoints'
import { ToolError } from '../toolPresenter/agentTools/defineTool'
import {
  ensureParentFolders,
  openForWrite,
  openVerified,
  realInside,
  removeVerified,
  replaceContent
} from '../toolPresenter/agentTools/safeFile'

/** A file's content before a turn, as a `file/snapshot` fact keeps it. */
export interface KeptContent {
  path: string
  previousContent: string | null
  notKept?: 'too_large' | 'binary'
}

export interface PutBackOutcome {
  files: RevertResult['files']
  /** The content each touched file had just before (so the revert itself can be undone). */
  replaced: { path: string; contentBeforeRevert: string | null }[]
}

/**
 * Writes each file's earlier content back, or deletes a file that did not exist, through the same
 * no-follow file layer as the write tool: only inside the workspace, never through a link. The
 * model may have turned a file or a folder into a link since; such a path is skipped and named.
 */
export async function putBack(
  workspaceDir: string,
  snapshots: readonly KeptContent[]
): Promise<PutBackOutcome> {
  const root = await realpath(workspaceDir).catch(() => null)
  const outcome: PutBackOutcome = { files: [], replaced: [] }
  for (const snapshot of snapshots) {
    const { path } = snapshot
    if (snapshot.notKept) {
      outcome.files.push({ path, action: 'not_kept' })
      continue
    }
    const place = root
      ? await realInside(root, workspaceDir, path)
      : { refused: 'outside_workspace' as const }
    if ('refused' in place) {
      outcome.files.push({ path, action: 'skipped', reason: place.refused })
      continue
    }
    try {
      const action = await putOne(place.real, path, snapshot.previousContent, outcome.replaced)
      outcome.files.push({ path, action })
    } catch (error) {
      outcome.files.push({ path, action: 'skipped', reason: skipReason(error) })
    }
  }
  return outcome
}

async function putOne(
  real: string,
  shown: string,
  before: string | null,
  replaced: PutBackOutcome['replaced']
): Promise<'restored' | 'deleted' | 'unchanged'> {
  const { content: current, links } = await readVerified(real, shown)
  // A hard link shares its content with a name elsewhere (perhaps outside): writing would change
  // that file too, so it is treated like a link and left alone.
  if (links > 1) throw new ToolError('path_changed', `${shown} has other hard links`)
  replaced.push({ path: shown, contentBeforeRevert: current })
  if (current === before) return 'unchanged'
  if (before === null) {
    await removeVerified(real, shown)
    return 'deleted'
  }
  await ensureParentFolders(real, shown)
  const { handle } = await openForWrite(real, shown)
  try {
    await replaceContent(handle, before)
  } finally {
    await handle.close()
  }
  return 'restored'
}

/**
 * The file's text read without following a link (null when it does not exist), and how many
 * names its content has (hard links).
 */
export async function readVerified(
  real: string,
  shown: string
): Promise<{ content: string | null; links: number }> {
  let handle
  try {
    handle = await openVerified(real, shown, 'read')
  } catch (error) {
    if (error instanceof ToolError && error.code === 'not_found') return { content: null, links: 0 }
    throw error
  }
  try {
    const { nlink } = await handle.stat()
    return { content: await handle.readFile('utf8'), links: nlink }
  } finally {
    await handle.close()
  }
}

function skipReason(error: unknown): SkipReason {
  const code = error instanceof ToolError ? error.code : ''
  if (code === 'path_changed') return 'link'
  if (code === 'is_directory' || code === 'not_a_file') return 'not_a_file'
  return 'failed'
}
