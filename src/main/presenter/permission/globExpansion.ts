import { lstatSync, readdirSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import picomatch from 'picomatch'

/** More matches than this, and the word counts as unknown until run time. */
export const GLOB_MATCH_CAP = 256
/** Folder entries read while matching one word; beyond it the word is unknown too. */
const GLOB_ENTRY_BUDGET = 4096

/** Glob syntax, and `~` so that a quoted tilde is never taken for a tilde prefix. */
const GLOB_SPECIAL = /[\\*?[\]()!+@|{}~]/g

/** A literal text as a glob pattern that matches only itself. */
export function globEscape(text: string): string {
  return text.replace(GLOB_SPECIAL, (c) => `\\${c}`)
}

function unescapeGlob(text: string): string {
  return text.replace(/\\(.)/g, '$1')
}

export type GlobResult = { kind: 'matches'; paths: string[] } | { kind: 'none' } | { kind: 'too_many' }

const MATCH_OPTIONS = { nobrace: true, noextglob: true, nonegate: true, posix: true } as const

/**
 * Matches `pattern` (escaped literals, active `*`, `?`, `[...]`) against the real folders the
 * way bash does by default: one folder level per `*` (no globstar), a leading dot only matched
 * by a leading dot (older bash and zsh also match `.` and `..` there, so those are offered too),
 * and links to folders followed. Results keep the pattern's own form (relative stays relative).
 */
export function matchGlob(pattern: string, cwd: string): GlobResult {
  const segments = pattern.split('/')
  let bases: string[] = [pattern.startsWith('/') ? '/' : '']
  let budget = GLOB_ENTRY_BUDGET
  for (const segment of pattern.startsWith('/') ? segments.slice(1) : segments) {
    if (segment === '') continue
    if (!picomatch.scan(segment).isGlob) {
      bases = bases.map((base) => joinShown(base, unescapeGlob(segment)))
      continue
    }
    const isMatch = picomatch(segment, {
      ...MATCH_OPTIONS,
      dot: segment.startsWith('.') || segment.startsWith('\\.')
    })
    const next: string[] = []
    for (const base of bases) {
      const names = entriesOf(resolve(cwd, base || '.'))
      budget -= names.length
      if (budget < 0) return { kind: 'too_many' }
      if (segment.startsWith('.') || segment.startsWith('\\.')) names.push('.', '..')
      for (const name of names) if (isMatch(name)) next.push(joinShown(base, name))
      if (next.length > GLOB_MATCH_CAP) return { kind: 'too_many' }
    }
    bases = next
  }
  // A trailing slash matches folders only (links to folders included).
  const folders = pattern.endsWith('/')
  const paths = bases
    .filter((path) => (folders ? isFolder(resolve(cwd, path)) : exists(resolve(cwd, path))))
    .map((path) => (folders && !path.endsWith('/') ? `${path}/` : path))
  return paths.length ? { kind: 'matches', paths: paths.sort() } : { kind: 'none' }
}

/** True when the pattern has an active (unescaped) glob character. */
export function isGlobPattern(pattern: string): boolean {
  return pattern.split('/').some((segment) => picomatch.scan(segment).isGlob)
}

/** The pattern as the literal word bash passes when nothing matches. */
export function literalOf(pattern: string): string {
  return unescapeGlob(pattern)
}

function joinShown(base: string, name: string): string {
  if (base === '') return name
  return base.endsWith('/') ? `${base}${name}` : `${base}/${name}`
}

function entriesOf(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}
