import { realpathSync } from 'node:fs'
import { lstat, readFile, readdir, realpath } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import ignore, { type Ignore } from 'ignore'
import { isInside } from '../permission/paths'
import { readerKindOf } from './readers'

/** Folders never looked into: version control, dependencies, caches. */
const SKIPPED_FOLDERS = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  '__pycache__',
  '.venv',
  '.tox',
  '.cache',
  '.next',
  '.nuxt'
])
/** A folder source stops listing after this many files (the base's errors say so). */
export const MAX_FILES_PER_SOURCE = 20_000

export interface FoundFile {
  path: string
  size: number
  mtimeMs: number
}

export interface ScanResult {
  files: FoundFile[]
  /** Files seen and left out on purpose (too big), for the base's errors. */
  tooLarge: FoundFile[]
  /** The folders walked (what a watcher needs to see). */
  folders: string[]
  truncated: boolean
}

export interface ScanOptions {
  maxFileBytes: number
  /** Folders whose contents are never read (the app's data folder: its database and secrets). */
  excluded: readonly string[]
  signal?: AbortSignal
}

/**
 * The supported files under a folder: by the readers' allowlist of extensions, skipping
 * version-control and dependency folders and what `.gitignore` files ignore. Links are never
 * followed (a link can lead anywhere; only what is really inside the folder is read).
 */
export async function scanFolder(root: string, options: ScanOptions): Promise<ScanResult> {
  const result: ScanResult = { files: [], tooLarge: [], folders: [], truncated: false }
  const excluded = options.excluded.map(realPathOr)
  const walk = async (dir: string, rules: { base: string; matcher: Ignore }[]): Promise<void> => {
    if (result.truncated || options.signal?.aborted) return
    if (excluded.some((folder) => isInside(dir, folder))) return
    let entries
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch {
      return // unreadable folder: nothing from it
    }
    result.folders.push(dir)
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    const own = await gitignoreIn(dir)
    const active = own ? [...rules, { base: dir, matcher: own }] : rules
    for (const entry of entries) {
      if (result.truncated) return
      const path = join(dir, entry.name)
      const isDir = entry.isDirectory()
      if (ignored(active, path, isDir)) continue
      if (isDir) {
        if (!SKIPPED_FOLDERS.has(entry.name)) await walk(path, active)
      } else if (entry.isFile() && readerKindOf(path)) {
        const info = await lstat(path).catch(() => null)
        if (!info?.isFile()) continue
        const found = { path, size: info.size, mtimeMs: Math.floor(info.mtimeMs) }
        if (info.size > options.maxFileBytes) result.tooLarge.push(found)
        else result.files.push(found)
        if (result.files.length >= MAX_FILES_PER_SOURCE) result.truncated = true
      }
      // Links, sockets, devices: never.
    }
  }
  await walk(root, [])
  return result
}

/** One file source as it is now: null when it is gone, is not a regular file or is reached through a link. */
export async function statFile(path: string): Promise<FoundFile | null> {
  const info = await lstat(path).catch(() => null)
  if (!info?.isFile() || !(await isRealPath(path))) return null
  return { path, size: info.size, mtimeMs: Math.floor(info.mtimeMs) }
}

/**
 * The path leads to itself: no folder on the way was swapped for a link since the scan (lstat
 * only looks at the last name). Every path the index holds was built from a real root and names.
 */
export async function isRealPath(path: string): Promise<boolean> {
  return (await realpath(path).catch(() => null)) === path
}

/** Whether `path` is inside one of `folders` (compared by real paths: the data folder may be reached through a link). */
export function insideAny(path: string, folders: readonly string[]): boolean {
  const real = realPathOr(path)
  return folders.some((folder) => isInside(real, realPathOr(folder)))
}

function realPathOr(path: string): string {
  try {
    return realpathSync.native(path)
  } catch {
    return path
  }
}

async function gitignoreIn(dir: string): Promise<Ignore | null> {
  try {
    const info = await lstat(join(dir, '.gitignore'))
    if (!info.isFile() || info.size > 1024 * 1024) return null
    return ignore().add(await readFile(join(dir, '.gitignore'), 'utf8'))
  } catch {
    return null
  }
}

function ignored(rules: { base: string; matcher: Ignore }[], path: string, isDir: boolean): boolean {
  for (const { base, matcher } of rules) {
    const rel = relative(base, path).split(sep).join('/')
    if (rel && matcher.ignores(isDir ? `${rel}/` : rel)) return true
  }
  return false
}
