import { realpathSync } from 'node:fs'
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

/**
 * The real path of `path` after symlinks. A path that does not exist yet is resolved at its
 * nearest existing ancestor and the missing tail is appended, so a new file under a symlinked
 * folder is judged by where it would really land.
 */
export function realPathOf(path: string): string {
  const missing: string[] = []
  let current = resolve(path)
  for (;;) {
    try {
      const real = realpathSync.native(current)
      return missing.length ? join(real, ...missing.reverse()) : real
    } catch {
      const parent = dirname(current)
      if (parent === current) return resolve(path)
      missing.push(basename(current))
      current = parent
    }
  }
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

const SENSITIVE_SEGMENTS = ['.ssh', '.gnupg', '.aws', '.kube', '.docker', '.netrc', '.npmrc', '.pypirc', '.git-credentials']
const SENSITIVE_FILES = /(^|[\\/])(id_rsa|id_ed25519|id_ecdsa|\.env(\..*)?|\.bashrc|\.zshrc|\.profile|\.bash_profile|credentials|known_hosts|authorized_keys)$/

/** Keys, credentials and shell start-up files: touching them raises the risk. */
export function isSensitivePath(path: string): boolean {
  const parts = path.split(/[\\/]/)
  return parts.some((part) => SENSITIVE_SEGMENTS.includes(part)) || SENSITIVE_FILES.test(path)
}
