import { lstatSync, readlinkSync, realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'

/** `~` and `~/x` become the home folder; other paths are left as given. */
export function expandHome(path: string, home = homedir()): string {
  if (path === '~') return home
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(home, path.slice(2))
  return path
}

/** Absolute, normalised path: `~` expanded, relative paths taken from `baseDir`. */
export function resolveUserPath(path: string, baseDir: string, home = homedir()): string {
  const expanded = expandHome(path.trim(), home)
  return isAbsolute(expanded) ? resolve(expanded) : resolve(baseDir, expanded)
}

/** How many symbolic links one resolution may follow (Linux's own limit). */
export const MAX_LINK_HOPS = 40

/**
 * Where a path really is. `ok: false` means the location cannot be known (a permission error on
 * a parent, a link loop, a name too long, ...): callers must then fail closed, never treat it as
 * inside anything.
 */
export type RealPathResult = { ok: true; real: string } | { ok: false; path: string; error: string }

/** Errors that mean "this part does not exist (yet)": the walk goes on at the parent. */
const MISSING_ERRORS = new Set(['ENOENT', 'ENOTDIR'])

/**
 * The real path of `path` after symlinks, or why it cannot be known. A missing tail is resolved
 * at its nearest existing ancestor and appended, so a new file under a symlinked folder is judged
 * where it would really land. A dangling link (final or in the middle) is judged at its target,
 * because writing through it creates that target. Only ENOENT/ENOTDIR count as "missing"; any
 * other error, or more than MAX_LINK_HOPS dangling links, makes the path unresolvable.
 */
export function resolveRealPath(path: string): RealPathResult {
  let pending = resolve(path)
  for (let hops = 0; hops <= MAX_LINK_HOPS; hops++) {
    const step = resolveOnce(pending)
    if ('real' in step) return { ok: true, real: step.real }
    if ('error' in step) return { ok: false, path: resolve(path), error: step.error }
    pending = step.next
  }
  return { ok: false, path: resolve(path), error: 'ELOOP' }
}

type Step = { real: string } | { error: string } | { next: string }

/** Walks up from `path` to the nearest existing ancestor; a dangling link on the way yields its target. */
function resolveOnce(path: string): Step {
  const missing: string[] = []
  let current = path
  for (;;) {
    const real = tryRealpath(current)
    if (typeof real === 'string') return { real: missing.length ? join(real, ...missing.reverse()) : real }
    if (!MISSING_ERRORS.has(real.code)) return { error: real.code }
    const link = danglingLinkTarget(current)
    if (link && 'error' in link) return link
    if (link) return { next: missing.length ? join(link.target, ...missing.reverse()) : link.target }
    const parent = dirname(current)
    if (parent === current) return { error: real.code }
    missing.push(basename(current))
    current = parent
  }
}

function tryRealpath(path: string): string | { code: string } {
  try {
    return realpathSync.native(path)
  } catch (error) {
    return { code: errorCode(error) }
  }
}

/** The absolute target of `path` when it is a symbolic link (its parent exists), else null. */
function danglingLinkTarget(path: string): { target: string } | { error: string } | null {
  let isLink: boolean
  try {
    isLink = lstatSync(path).isSymbolicLink()
  } catch (error) {
    const code = errorCode(error)
    return MISSING_ERRORS.has(code) ? null : { error: code }
  }
  // lstat found something realpath could not resolve, and it is no link: it changed meanwhile.
  if (!isLink) return { error: 'EAGAIN' }
  try {
    // A relative target counts from the link's real folder, as the kernel reads it.
    return { target: resolve(realpathSync.native(dirname(path)), readlinkSync(path)) }
  } catch (error) {
    return { error: errorCode(error) }
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException)?.code ?? 'EUNKNOWN'
}

/**
 * The real path of `path` after symlinks (see `resolveRealPath`). When it cannot be known, the
 * normalised path itself comes back: only for callers that merely display it or fail closed on
 * their own; permission decisions use `resolveRealPath`.
 */
export function realPathOf(path: string): string {
  const result = resolveRealPath(path)
  return result.ok ? result.real : result.path
}

/** True when `child` is `root` or lies below it. Both must be absolute and normalised. */
export function isInside(child: string, root: string): boolean {
  // Windows paths compare case-insensitively (C:\Users\A and c:\users\a are one folder).
  if (process.platform === 'win32') {
    child = child.toLowerCase()
    root = root.toLowerCase()
  }
  if (child === root) return true
  const rel = relative(root, child)
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`)
}

/** Shows a path with the home folder as `~`, for rules and messages. */
export function tildify(path: string, home = homedir()): string {
  if (path === home) return '~'
  return isInside(path, home) ? `~/${relative(home, path).split(sep).join('/')}` : path
}

const SENSITIVE_SEGMENTS = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.kube',
  '.docker',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials'
]
const SENSITIVE_FILES =
  /(^|[\\/])(id_rsa|id_ed25519|id_ecdsa|\.env(\..*)?|\.bashrc|\.zshrc|\.profile|\.bash_profile|credentials|known_hosts|authorized_keys)$/

/** Keys, credentials and shell start-up files: touching them raises the risk. */
export function isSensitivePath(path: string): boolean {
  const parts = path.split(/[\\/]/)
  return parts.some((part) => SENSITIVE_SEGMENTS.includes(part)) || SENSITIVE_FILES.test(path)
}
