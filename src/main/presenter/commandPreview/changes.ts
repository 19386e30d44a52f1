import {
  accessSync,
  closeSync,
  constants,
  chmodSync,
  copyFileSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync
} from 'node:fs'
import { randomBytes } from 'node:crypto'
import { basename, dirname, join } from 'node:path'
import type { PreviewFileChange } from '@shared/types/commandPreview'
import { PROTECTED_WORKSPACE_ENTRIES } from '../permission/boundary'
import type { Tree, TreeEntry } from './workspaceTree'

/** One change the preview made in its copy, as apply needs it (never truncated). */
export interface PlannedChange {
  path: string
  change: 'created' | 'changed' | 'deleted'
  /** The entry in the copy after the run (created, changed) or in the workspace (deleted). */
  entry: TreeEntry
}

/** Above this a file's text is not shown (its size is). */
export const TEXT_LIMIT = 64 * 1024
/** At most this many changes are described on the card; apply takes all of them. */
export const MAX_LISTED_CHANGES = 200

/**
 * What a command changed in its copy: every path whose entry is new, gone, of another type, or
 * (files and links) written since the copy was made and now different from the workspace's.
 * A type change is a delete and a create. Folders count only when created or deleted.
 */
export function plannedChanges(
  workspace: string,
  copy: string,
  original: Tree,
  copied: Tree,
  after: Tree
): PlannedChange[] {
  const changes: PlannedChange[] = []
  for (const [path, was] of copied) {
    const now = after.get(path)
    if (!now || now.type !== was.type)
      changes.push({ path, change: 'deleted', entry: original.get(path) ?? was })
  }
  for (const [path, now] of after) {
    // A pipe or socket the command left is not a file apply could copy.
    if (now.type === 'other') continue
    const was = copied.get(path)
    if (!was || now.type !== was.type) {
      changes.push({ path, change: 'created', entry: now })
      continue
    }
    if (now.type === 'dir' || (now.ino === was.ino && now.ctimeNs === was.ctimeNs)) continue
    const before = original.get(path)
    if (now.type === 'link' && now.target !== before?.target)
      changes.push({ path, change: 'changed', entry: now })
    if (now.type === 'file' && !sameFile(join(workspace, path), join(copy, path), before, now))
      changes.push({ path, change: 'changed', entry: now })
  }
  return changes
}

/** Same size, mode and bytes; read in chunks, so a large file costs no more memory than a small one. */
function sameFile(a: string, b: string, before: TreeEntry | undefined, now: TreeEntry): boolean {
  if (!before || before.size !== now.size || before.mode !== now.mode) return false
  let fa: number | undefined
  let fb: number | undefined
  try {
    fa = openSync(a, constants.O_RDONLY | constants.O_NOFOLLOW)
    fb = openSync(b, constants.O_RDONLY | constants.O_NOFOLLOW)
    const ba = Buffer.alloc(COMPARE_CHUNK)
    const bb = Buffer.alloc(COMPARE_CHUNK)
    for (;;) {
      const na = readSync(fa, ba, 0, COMPARE_CHUNK, null)
      const nb = readSync(fb, bb, 0, COMPARE_CHUNK, null)
      if (na !== nb || !ba.subarray(0, na).equals(bb.subarray(0, nb))) return false
      if (na === 0) return true
    }
  } catch {
    return false
  } finally {
    if (fa !== undefined) closeSync(fa)
    if (fb !== undefined) closeSync(fb)
  }
}

const COMPARE_CHUNK = 1024 * 1024

/** The card's description of the changes: text for diffs, sizes for the rest. */
export function describeChanges(
  workspace: string,
  copy: string,
  changes: PlannedChange[]
): { files: PreviewFileChange[]; omitted: number } {
  const sorted = [...changes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  const files = sorted.slice(0, MAX_LISTED_CHANGES).map((c) => describe(workspace, copy, c))
  return { files, omitted: Math.max(0, changes.length - MAX_LISTED_CHANGES) }
}

function describe(workspace: string, copy: string, c: PlannedChange): PreviewFileChange {
  const beforePath = c.change === 'created' ? null : join(workspace, c.path)
  const afterPath = c.change === 'deleted' ? null : join(copy, c.path)
  const protectedEntry = isProtectedPath(c.path) ? { protectedEntry: true } : {}
  const base = { path: c.path, change: c.change, ...protectedEntry }
  if (c.entry.type === 'dir')
    return { ...base, kind: 'folder', before: null, after: null, sizeBefore: null, sizeAfter: null }
  if (c.entry.type === 'link') {
    return {
      ...base,
      kind: 'link',
      before: c.change === 'deleted' ? (c.entry.target ?? null) : null,
      after: c.change === 'deleted' ? null : (c.entry.target ?? null),
      sizeBefore: null,
      sizeAfter: null
    }
  }
  const before = beforePath ? readText(beforePath) : null
  const after = afterPath ? readText(afterPath) : null
  const kinds = [before?.kind, after?.kind].filter(Boolean)
  const kind = kinds.includes('binary') ? 'binary' : kinds.includes('too_large') ? 'too_large' : 'text'
  return {
    ...base,
    kind,
    before: kind === 'text' ? (before?.text ?? null) : null,
    after: kind === 'text' ? (after?.text ?? null) : null,
    sizeBefore: before?.size ?? null,
    sizeAfter: after?.size ?? null
  }
}

function readText(path: string): {
  kind: 'text' | 'binary' | 'too_large'
  text: string | null
  size: number
} {
  let buffer: Buffer
  try {
    // Never through a link, and never a whole large file into memory.
    const info = lstatSync(path)
    if (!info.isFile()) return { kind: 'binary', text: null, size: 0 }
    if (info.size > TEXT_LIMIT) return { kind: 'too_large', text: null, size: info.size }
    buffer = readFileSync(path, { flag: constants.O_RDONLY | constants.O_NOFOLLOW })
  } catch {
    return { kind: 'binary', text: null, size: 0 }
  }
  if (buffer.length > TEXT_LIMIT) return { kind: 'too_large', text: null, size: buffer.length }
  if (buffer.includes(0)) return { kind: 'binary', text: null, size: buffer.length }
  return { kind: 'text', text: buffer.toString('utf8'), size: buffer.length }
}

export function isProtectedPath(path: string): boolean {
  const names = new Set(PROTECTED_WORKSPACE_ENTRIES.map((n) => n.toLowerCase()))
  return path.split('/').some((part) => names.has(part.toLowerCase()))
}

/** A folder swapped for a link since the check must not lead a write or delete elsewhere. */
function assertOwnFolder(target: string, path: string): void {
  if (realpathSync.native(dirname(target)) !== dirname(target))
    throw new Error(`${dirname(path)} is no longer a folder of the workspace`)
}

const depth = (path: string) => path.split('/').length

/**
 * Makes the workspace what the copy became: deletes first (deepest first), then new folders
 * (shallowest first), then files and links, each written beside its target and renamed over it,
 * so a reader sees the old file or the new one, never half of one. The caller has checked that
 * the workspace did not change since the copy was made.
 */
export function applyChanges(workspace: string, copy: string, changes: PlannedChange[]): void {
  // Every new file must be readable before anything is touched: a half-applied preview followed
  // by a real run would do neither.
  for (const c of changes)
    if (c.change !== 'deleted' && c.entry.type === 'file') accessSync(join(copy, c.path), constants.R_OK)
  try {
    applyInOrder(workspace, copy, changes)
  } catch (error) {
    throw new PartlyAppliedError(error instanceof Error ? error.message : String(error))
  }
}

/** Apply failed after it had begun changing the workspace. */
export class PartlyAppliedError extends Error {
  constructor(detail: string) {
    super(detail)
    this.name = 'PartlyAppliedError'
  }
}

function applyInOrder(workspace: string, copy: string, changes: PlannedChange[]): void {
  const deleted = changes.filter((c) => c.change === 'deleted').sort((a, b) => depth(b.path) - depth(a.path))
  for (const c of deleted) {
    const target = join(workspace, c.path)
    assertOwnFolder(target, c.path)
    if (c.entry.type === 'dir') rmdirSync(target)
    else unlinkSync(target)
  }
  const written = changes.filter((c) => c.change !== 'deleted').sort((a, b) => depth(a.path) - depth(b.path))
  for (const c of written.filter((c) => c.entry.type === 'dir'))
    mkdirSync(join(workspace, c.path), { mode: c.entry.mode })
  for (const c of written) {
    if (c.entry.type === 'dir') continue
    const target = join(workspace, c.path)
    assertOwnFolder(target, c.path)
    const temporary = join(dirname(target), `.${basename(target)}.preview-${randomBytes(4).toString('hex')}`)
    if (c.entry.type === 'link') symlinkSync(c.entry.target ?? '', temporary)
    else {
      copyFileSync(join(copy, c.path), temporary, constants.COPYFILE_EXCL)
      chmodSync(temporary, c.entry.mode)
    }
    try {
      renameSync(temporary, target)
    } catch (error) {
      try {
        unlinkSync(temporary)
      } catch {
        // already gone
      }
      throw error
    }
  }
}
