import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import { ActionBlockData } from '@shared/types/blocks'
import { AppError } from '@shared/errors'
import type { WritePreviewFile } from '@shared/types/checkpoints'
import type { PendingInteraction, SessionRecord } from '@shared/types/session'
import type { FilePermissionService } from '../permission/filePermissionService'

/** Above this the card shows the new content only: a diff of a huge file helps nobody decide. */
export const PREVIEW_MAX_BYTES = 256 * 1024
const MAX_FILES = 5

export interface WritePreviewDeps {
  interactions: { require(interactionId: string): PendingInteraction }
  sessions: { require(sessionId: string): SessionRecord }
  files: Pick<FilePermissionService, 'judge'>
  sessionDataDir: (sessionId: string) => string
}

/**
 * The current content of the files a pending write request would change, so the approval card
 * can show a diff before the user answers. A file is shown when the session's `read` tool could
 * read it, or when it lies outside the workspace (the user, not the model, is looking, and the
 * path is the request's own). The app's data folder, its secrets and unresolvable paths never.
 */
export async function previewPendingWrite(
  deps: WritePreviewDeps,
  sessionId: string,
  interactionId: string
): Promise<WritePreviewFile[]> {
  const interaction = deps.interactions.require(interactionId)
  if (interaction.sessionId !== sessionId)
    throw new AppError('not_found', `Interaction ${interactionId} is not in session ${sessionId}`)
  if (interaction.status !== 'pending')
    throw new AppError(
      'interaction_not_pending',
      `Interaction ${interactionId} was already ${interaction.status}`
    )
  const action = ActionBlockData.safeParse(interaction.request)
  if (!action.success || action.data.actionType !== 'permission') return []
  const request = action.data.request
  if (request.type !== 'write') return []
  const session = deps.sessions.require(sessionId)
  const scope = {
    sessionId,
    workspaceDir: session.workspaceDir,
    sessionDataDir: deps.sessionDataDir(sessionId),
    tool: request.tool,
    server: request.server
  }
  const files: WritePreviewFile[] = []
  for (const path of (request.paths ?? []).slice(0, MAX_FILES)) {
    const verdict = deps.files.judge('read', path, scope)
    if (verdict.kind === 'inside' || verdict.kind === 'outside')
      files.push(await readForPreview(verdict.real))
    else files.push({ path, status: 'hidden', content: null })
  }
  return files
}

/** Reads the file itself, never a link swapped in; anything odd is a status, not an error. */
async function readForPreview(path: string): Promise<WritePreviewFile> {
  let handle
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return { path, status: code === 'ENOENT' ? 'missing' : 'unreadable', content: null }
  }
  try {
    const info = await handle.stat()
    if (!info.isFile()) return { path, status: 'unreadable', content: null }
    if (info.size > PREVIEW_MAX_BYTES) return { path, status: 'too_large', content: null, size: info.size }
    const buffer = await handle.readFile()
    if (buffer.includes(0)) return { path, status: 'binary', content: null, size: info.size }
    return { path, status: 'shown', content: buffer.toString('utf8'), size: info.size }
  } finally {
    await handle.close()
  }
}
