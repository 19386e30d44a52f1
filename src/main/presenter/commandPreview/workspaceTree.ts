import {
  constants,
  chmodSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
  utimesSync,
  type BigIntStats
} from 'node:fs'
import { join } from 'node:path'

/** One entry of a tree, by workspace-relative path ('/'-separated, no leading slash). */
export interface TreeEntry {
  type: 'file' | 'dir' | 'link' | 'other'
  size: number
  mode: number
  ino: bigint
  /** The status-change time: no process can set it back, so any write or chmod moves it. */
  ctimeNs: bigint
  mtimeNs: bigint
  target?: string
}

export type Tree = Map<string, TreeEntry>

export class TreeTooLargeError extends Error {
  constructor(
    readonly files: number,
    readonly bytes: number
  ) {
    super(`the workspace is over the preview's limit (${files}+ entries, ${bytes}+ bytes)`)
    this.name = 'TreeTooLargeError'
  }
}

/**
 * Every entry below `root` with its status, links not followed, breadth first. `skip` holds
 * relative paths left out with everything below them. Over `limits` it throws TreeTooLargeError.
 */
export function walkTree(
  root: string,
  options: {
    skip?: ReadonlySet<string>
    limits?: { files: number; bytes: number }
    /**
     * A folder of ours (the preview's copy) made unreadable by the command gets its owner's
     * permissions back so it can be listed: its entries must not look deleted.
     */
    repair?: boolean
  } = {}
): Tree {
  const tree: Tree = new Map()
  const queue: string[] = ['']
  let bytes = 0
  while (queue.length) {
    const rel = queue.shift()!
    const dir = rel ? join(root, rel) : root
    let names: string[]
    try {
      names = listFolder(dir, options.repair === true)
    } catch {
      continue
    }
    for (const name of names.sort()) {
      const path = rel ? `${rel}/${name}` : name
      if (options.skip?.has(path)) continue
      let stats: BigIntStats
      try {
        stats = lstatSync(join(root, path), { bigint: true })
      } catch {
        continue
      }
      const entry = entryOf(root, path, stats)
      tree.set(path, entry)
      if (entry.type === 'file') bytes += entry.size
      if (options.limits && (tree.size > options.limits.files || bytes > options.limits.bytes))
        throw new TreeTooLargeError(tree.size, bytes)
      if (entry.type === 'dir') queue.push(path)
    }
  }
  return tree
}

function listFolder(dir: string, repair: boolean): string[] {
  try {
    return readdirSync(dir)
  } catch (error) {
    if (!repair || (error as NodeJS.ErrnoException).code !== 'EACCES') throw error
    chmodSync(dir, (lstatSync(dir).mode & 0o7777) | 0o700)
    return readdirSync(dir)
  }
}

function entryOf(root: string, path: string, stats: BigIntStats): TreeEntry {
  const type = stats.isFile()
    ? 'file'
    : stats.isDirectory()
      ? 'dir'
      : stats.isSymbolicLink()
        ? 'link'
        : 'other'
  const entry: TreeEntry = {
    type,
    size: Number(stats.size),
    mode: Number(stats.mode) & 0o7777,
    ino: stats.ino,
    ctimeNs: stats.ctimeNs,
    mtimeNs: stats.mtimeNs
  }
  if (type === 'link') {
    try {
      entry.target = readlinkSync(join(root, path))
    } catch {
      entry.target = ''
    }
  }
  return entry
}

/**
 * Copies the entries of `tree` from `source` to `dest` (which must not exist yet): files with a
 * reflink where the file system has them, modes and modification times kept, links as links.
 * Pipes, sockets and devices are not copied. Returns the copy's own tree, to tell later what
 * a command changed in it.
 */
export function copyTree(source: string, dest: string, tree: Tree): Tree {
  mkdirSync(dest, { recursive: true, mode: 0o700 })
  const dirs: [string, TreeEntry][] = []
  for (const [path, entry] of tree) {
    const from = join(source, path)
    const to = join(dest, path)
    if (entry.type === 'dir') {
      mkdirSync(to, { mode: 0o700 })
      dirs.push([to, entry])
    } else if (entry.type === 'file') {
      copyFileSync(from, to, constants.COPYFILE_FICLONE)
      chmodSync(to, entry.mode)
      const mtime = Number(entry.mtimeNs / 1_000_000n) / 1000
      utimesSync(to, mtime, mtime)
    } else if (entry.type === 'link' && entry.target !== undefined) {
      symlinkSync(entry.target, to)
    }
  }
  // Folder modes last: a read-only folder must take its children first.
  for (const [to, entry] of dirs.reverse()) {
    chmodSync(to, entry.mode)
    const mtime = Number(entry.mtimeNs / 1_000_000n) / 1000
    utimesSync(to, mtime, mtime)
  }
  return walkTree(dest)
}

/** The first difference between two walks of the same tree, or null when they are the same. */
export function firstDifference(before: Tree, after: Tree): string | null {
  for (const [path, entry] of before) {
    const now = after.get(path)
    if (!now) return `${path} was removed`
    if (now.type !== entry.type || now.ino !== entry.ino || now.ctimeNs !== entry.ctimeNs)
      return `${path} changed`
  }
  for (const path of after.keys()) if (!before.has(path)) return `${path} was created`
  return null
}
