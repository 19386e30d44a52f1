import { readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import ignore, { type Ignore } from 'ignore'
import { isInside } from '../../permission/paths'

/** One `.gitignore` that governs a search, and where its rules apply. */
interface GitignoreSource {
  file: string
  /** '' = the searched folder; 'a/b' = a subfolder; '^a/b' = an ancestor, `a/b` is the way down to the searched folder. */
  scope: string
  version: string
}

/**
 * Applies every `.gitignore` that governs a search: those inside the searched folder (paths
 * relative to it, POSIX) and those in its ancestors up to the workspace root.
 */
export class GitignoreFilter {
  private readonly rules: { scope: string; matcher: Ignore }[] = []

  constructor(sources: GitignoreSource[]) {
    for (const source of sources) {
      try {
        this.rules.push({ scope: source.scope, matcher: ignore().add(readFileSync(source.file, 'utf8')) })
      } catch {
        // Unreadable: as if it were not there.
      }
    }
  }

  get empty(): boolean {
    return this.rules.length === 0
  }

  /** `path` is relative to the searched folder, POSIX. */
  ignores(path: string): boolean {
    for (const { scope, matcher } of this.rules) {
      if (scope === '') {
        if (matcher.ignores(path)) return true
      } else if (scope.startsWith('^')) {
        if (matcher.ignores(`${scope.slice(1)}/${path}`)) return true
      } else if (path.startsWith(`${scope}/`) && matcher.ignores(path.slice(scope.length + 1))) {
        return true
      }
    }
    return false
  }
}

const cache = new Map<string, { key: string; filter: GitignoreFilter }>()
const CACHE_SIZE = 8

/**
 * The filter for a search below `root`. `candidates` are `.gitignore` paths (relative to root)
 * that may exist. The matcher is reused while the same files with the same size and mtime
 * govern the folder: `ignore` caches its answers per path, so repeated searches stay cheap.
 */
export function gitignoreFilterFor(root: string, workspaceRoot: string, candidates: string[]): GitignoreFilter {
  const sources = [...ancestorSources(root, workspaceRoot), ...nestedSources(root, candidates)]
  const key = sources.map((s) => `${s.file}:${s.version}`).join('|')
  const hit = cache.get(root)
  if (hit && hit.key === key) return hit.filter
  const filter = new GitignoreFilter(sources)
  cache.delete(root)
  cache.set(root, { key, filter })
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string)
  return filter
}

function ancestorSources(root: string, workspaceRoot: string): GitignoreSource[] {
  if (!isInside(root, workspaceRoot) || root === workspaceRoot) return []
  const ancestors: string[] = []
  for (let dir = dirname(root); isInside(dir, workspaceRoot); dir = dirname(dir)) {
    ancestors.unshift(dir)
    if (dir === workspaceRoot) break
  }
  return ancestors.flatMap((dir) => source(join(dir, '.gitignore'), `^${relative(dir, root).split(sep).join('/')}`))
}

function nestedSources(root: string, candidates: string[]): GitignoreSource[] {
  return candidates.flatMap((file) => source(join(root, file), file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : ''))
}

function source(file: string, scope: string): GitignoreSource[] {
  const info = statSync(file, { throwIfNoEntry: false })
  return info?.isFile() ? [{ file, scope, version: `${info.size}:${info.mtimeMs}` }] : []
}
