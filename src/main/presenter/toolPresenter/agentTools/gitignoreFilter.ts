import { readFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import ignore, { type Ignore } from 'ignore'
import { isInside } from '../../permission/paths'

/**
 * Applies every `.gitignore` that governs a search: those found inside the searched folder
 * (paths relative to it, POSIX) and those in its ancestors up to the workspace root.
 */
export class GitignoreFilter {
  private readonly rules: { dir: string; matcher: Ignore }[] = []

  constructor(root: string, workspaceRoot: string, nestedGitignores: string[]) {
    // Ancestors first (outermost first), expressed relative to the searched folder via prefix.
    if (isInside(root, workspaceRoot) && root !== workspaceRoot) {
      let dir = dirname(root)
      const ancestors: string[] = []
      while (isInside(dir, workspaceRoot)) {
        ancestors.unshift(dir)
        if (dir === workspaceRoot) break
        dir = dirname(dir)
      }
      for (const ancestor of ancestors) this.load(join(ancestor, '.gitignore'), relative(ancestor, root).split(sep).join('/'), true)
    }
    for (const file of nestedGitignores) this.load(join(root, file), file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '', false)
  }

  get empty(): boolean {
    return this.rules.length === 0
  }

  /** `path` is relative to the searched folder, POSIX. */
  ignores(path: string): boolean {
    for (const rule of this.rules) {
      if (rule.dir === '') {
        if (rule.matcher.ignores(path)) return true
      } else if (rule.dir.startsWith('^')) {
        // An ancestor's file: prefix the path with where the searched folder sits below it.
        if (rule.matcher.ignores(`${rule.dir.slice(1)}/${path}`)) return true
      } else if (path.startsWith(`${rule.dir}/`) && rule.matcher.ignores(path.slice(rule.dir.length + 1))) {
        return true
      }
    }
    return false
  }

  private load(file: string, dir: string, ancestor: boolean): void {
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch {
      return
    }
    const matcher = ignore().add(text)
    this.rules.push({ dir: ancestor ? `^${dir}` : dir, matcher })
  }
}
