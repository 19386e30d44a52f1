import { constants } from 'node:fs'
import { lstat, mkdir, open, readlink, realpath, unlink, type FileHandle } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path'
import type { PermissionRequest } from '@shared/types/permission'
import { secretsRefusal, type FileAccess } from '../../permission/filePermissionService'
import { ToolError, fileScope, type ToolContext } from './defineTool'
import { fsToolError } from './fsErrors'

// Not every platform has these (Windows has neither): then the checks after opening carry the load.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0
// A FIFO or device must not block the tool while opening; regular files ignore the flag.
const NON_BLOCK = constants.O_NONBLOCK ?? 0
// Linux names an open folder in /proc/self/fd: a path through that name reaches the very folder
// opened, as unlinkat/mkdirat would, so a parent swapped for a link afterwards changes nothing.
const FOLDER_HANDLES = process.platform === 'linux'

/** How a tool opens a file: read it, read and rewrite it, or create it (it must not exist). */
export type OpenPurpose = 'read' | 'update' | 'create'

const FLAGS: Record<OpenPurpose, number> = {
  read: constants.O_RDONLY | NO_FOLLOW | NON_BLOCK,
  update: constants.O_RDWR | NO_FOLLOW | NON_BLOCK,
  create: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW
}

/**
 * The real path a tool may touch for `path`, resolved again now that the tool runs. It must
 * still be free (inside the workspace, not protected) or be exactly one of the paths the user
 * approved for this call: a link swapped in after the check is refused, as is the secrets file.
 */
export function resolveForRun(ctx: ToolContext, tool: string, access: FileAccess, path: string): string {
  const verdict = ctx.files.judge(access, path, fileScope(ctx, tool))
  if (verdict.kind === 'unresolvable') {
    throw new ToolError(
      'unresolvable_path',
      `Cannot tell where ${path} really leads (${verdict.error}); it was not touched.`
    )
  }
  if (verdict.kind === 'secrets') throw new ToolError('secrets_file', secretsRefusal(path))
  if (verdict.kind !== 'inside' && !isApproved(ctx.approved, access, verdict.real))
    throw pathChanged(path, verdict.real)
  return verdict.real
}

function isApproved(
  approved: PermissionRequest | null | undefined,
  access: FileAccess,
  real: string
): boolean {
  return !!approved && approved.type === access && (approved.paths ?? []).includes(real)
}

export function pathChanged(shown: string, now?: string): ToolError {
  const where = now ? ` (it now leads to ${now}, which this call was not allowed to touch)` : ''
  return new ToolError(
    'path_changed',
    `${shown} changed after its permission check${where}; it was not touched. Check the path and try again.`
  )
}

/**
 * Opens `real` without following a final link, then proves the handle is that very file: same
 * device and inode as `real`, its folder still its own real path and, on Linux, the kernel's own
 * name for the open file equal to `real`. A file created by a failed check is removed again.
 */
export async function openVerified(real: string, shown: string, purpose: OpenPurpose): Promise<FileHandle> {
  let handle: FileHandle
  try {
    handle = await open(real, FLAGS[purpose], 0o666)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // O_NOFOLLOW on a link fails with ELOOP (EMLINK on the BSDs): a link appeared after the check.
    if (code === 'ELOOP' || code === 'EMLINK') throw pathChanged(shown)
    throw fsToolError(error, shown)
  }
  const problem = await handleProblem(handle, real).catch(() => 'unverifiable')
  if (problem === null) return handle
  if (purpose === 'create') await removeCreated(handle)
  await handle.close()
  if (problem === 'is_directory') throw new ToolError('is_directory', `${shown} is a directory`)
  if (problem === 'not_a_file')
    throw new ToolError('not_a_file', `${shown} is not a regular file (a device, pipe or socket)`)
  throw pathChanged(shown)
}

async function handleProblem(handle: FileHandle, real: string): Promise<string | null> {
  const opened = await handle.stat({ bigint: true })
  const expected = await lstat(real, { bigint: true }).catch(() => null)
  if (!expected || expected.isSymbolicLink() || opened.dev !== expected.dev || opened.ino !== expected.ino)
    return 'moved'
  if ((await realpath(dirname(real)).catch(() => null)) !== dirname(real)) return 'moved'
  const kernelName = await openedPath(handle)
  if (kernelName !== null && kernelName !== real) return 'moved'
  if (opened.isDirectory()) return 'is_directory'
  return opened.isFile() ? null : 'not_a_file'
}

/** Linux's name for what `handle` really is, or null where /proc is not there. */
async function openedPath(handle: FileHandle): Promise<string | null> {
  if (process.platform !== 'linux') return null
  return readlink(`/proc/self/fd/${handle.fd}`).catch(() => null)
}

async function removeCreated(handle: FileHandle): Promise<void> {
  const where = await openedPath(handle)
  if (!where) return
  const [opened, there] = await Promise.all([
    handle.stat({ bigint: true }),
    lstat(where, { bigint: true }).catch(() => null)
  ])
  if (there && there.dev === opened.dev && there.ino === opened.ino)
    await unlink(where).catch(() => undefined)
}

/**
 * Creates the missing folders above `real` one at a time, each made inside its verified parent
 * and checked to be its own real path right after, so a folder swapped for a link on the way
 * stops the write.
 */
export async function ensureParentFolders(real: string, shown: string): Promise<void> {
  const missing: string[] = []
  for (let dir = dirname(real); ;) {
    const info = await lstat(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null
      throw fsToolError(error, shown)
    })
    if (info?.isSymbolicLink()) throw pathChanged(shown, dir)
    if (info) break
    missing.push(dir)
    const parent = dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  for (const folder of missing.reverse()) {
    await inVerifiedFolder(dirname(folder), shown, (at) =>
      mkdir(at(basename(folder))).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw fsToolError(error, shown)
      })
    )
    if ((await realpath(folder).catch(() => null)) !== folder) throw pathChanged(shown, folder)
  }
}

/**
 * Deletes the regular file `real` (a real path) without following a link: the entry is removed
 * from its verified folder, and a link found there is refused rather than removed or followed.
 * False when there was nothing to delete.
 */
export async function removeVerified(real: string, shown: string): Promise<boolean> {
  return inVerifiedFolder(dirname(real), shown, async (at) => {
    const entry = at(basename(real))
    const info = await lstat(entry).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null
      throw fsToolError(error, shown)
    })
    if (!info) return false
    if (info.isSymbolicLink()) throw pathChanged(shown)
    if (info.isDirectory()) throw new ToolError('is_directory', `${shown} is a directory`)
    await unlink(entry).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw fsToolError(error, shown)
    })
    return true
  })
}

/**
 * Runs `use` with names inside the folder `real`, which must be its own real path (no link on the
 * way). On Linux the names go through the folder's open handle, opened without following a final
 * link and proven by the kernel's name for it; elsewhere they are plain paths after a re-check.
 */
async function inVerifiedFolder<T>(
  real: string,
  shown: string,
  use: (at: (name: string) => string) => Promise<T>
): Promise<T> {
  if (!FOLDER_HANDLES) {
    if ((await realpath(real).catch(() => null)) !== real) throw pathChanged(shown, real)
    return use((name) => join(real, name))
  }
  let folder: FileHandle
  try {
    folder = await open(real, constants.O_RDONLY | constants.O_DIRECTORY | NO_FOLLOW)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ELOOP' || code === 'ENOTDIR') throw pathChanged(shown, real)
    throw fsToolError(error, shown)
  }
  try {
    if ((await openedPath(folder)) !== real) throw pathChanged(shown, real)
    return await use((name) => `/proc/self/fd/${folder.fd}/${name}`)
  } finally {
    await folder.close()
  }
}

/** Why a path cannot be touched by a checkpoint: it leads outside the workspace, or through a link. */
export type InsideRefusal = 'outside_workspace' | 'link'

/**
 * `path` placed under the workspace's real root `root`, when it is inside it (by name, under
 * `root` or `shownRoot`, the workspace as the user gave it) and no part of it that exists is a
 * link; otherwise why not. The path returned may not exist yet.
 */
export async function realInside(
  root: string,
  shownRoot: string,
  path: string
): Promise<{ real: string } | { refused: InsideRefusal }> {
  if (!isAbsolute(path)) return { refused: 'outside_workspace' }
  const rel = [root, shownRoot].map((base) => relative(base, path)).find(isBelow)
  if (rel === undefined) return { refused: 'outside_workspace' }
  let at = root
  for (const part of rel.split(sep)) {
    at = join(at, part)
    const info = await lstat(at).catch(() => null)
    if (!info) break
    if (info.isSymbolicLink()) return { refused: 'link' }
  }
  return { real: join(root, rel) }
}

const isBelow = (rel: string) => rel !== '' && !isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`)

/** Opens an existing file for rewriting, or creates it; `created` says which. */
export async function openForWrite(
  real: string,
  shown: string
): Promise<{ handle: FileHandle; created: boolean }> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return { handle: await openVerified(real, shown, 'update'), created: false }
    } catch (error) {
      if (!(error instanceof ToolError) || error.code !== 'not_found') throw error
    }
    try {
      return { handle: await openVerified(real, shown, 'create'), created: true }
    } catch (error) {
      // Someone created it between the two opens: open it as an existing file instead.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
  throw pathChanged(shown)
}

/** Replaces the whole content of an open file. */
export async function replaceContent(handle: FileHandle, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8')
  await handle.truncate(0)
  let offset = 0
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset, offset)
    offset += bytesWritten
  }
}
