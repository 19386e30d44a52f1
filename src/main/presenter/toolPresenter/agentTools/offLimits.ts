import { relative, sep } from 'node:path'

/**
 * What a search below one root must never show (the app's data folder, its secrets files), as
 * root-relative paths with `/`. A folder hides everything below it; a file also hides its
 * `<file>.<suffix>` siblings (the temporary copies written while saving it).
 */
export interface OffLimits {
  folders: string[]
  files: string[]
  /** True when a root-relative result path lies in something off limits (the second check). */
  hides(relativePath: string): boolean
}

/** Off-limits real paths (below `root`, also real) made relative to `root`. */
export function offLimitsPatterns(below: { folders: string[]; files: string[] }, root: string): OffLimits {
  const rel = (path: string): string => relative(root, path).split(sep).join('/')
  const folders = below.folders.map(rel)
  const files = below.files.map(rel)
  return {
    folders,
    files,
    hides: (path) =>
      folders.some((f) => path === f || path.startsWith(`${f}/`)) ||
      files.some((f) => path === f || path.startsWith(`${f}.`))
  }
}

/** fast-glob `ignore` patterns for the off-limits paths (`escape` makes a path literal). */
export function globIgnores(off: OffLimits, escape: (path: string) => string): string[] {
  return [
    ...off.folders.flatMap((f) => [escape(f), `${escape(f)}/**`]),
    ...off.files.flatMap((f) => [escape(f), `${escape(f)}.*`])
  ]
}

/**
 * ripgrep exclusions, anchored at its working folder (which must be the search root). They go
 * last on the command line, so they win over the model's own `glob`.
 */
export function ripgrepExcludes(off: OffLimits): string[] {
  const globs = [
    ...off.folders.map((f) => `!/${literal(f)}`),
    ...off.files.flatMap((f) => [`!/${literal(f)}`, `!/${literal(f)}.*`])
  ]
  return globs.flatMap((glob) => ['--glob', glob])
}

/** A path as a glob matching only itself: special characters become one-character classes. */
function literal(path: string): string {
  return path.replace(/[*?[\]{}\\]/g, (c) => `[${c}]`)
}
