import { readFileSync, readdir, statSync, type Dirent } from 'node:fs'
import type fg from 'fast-glob'
import { dirname, join, relative, sep } from 'node:path'
import ignore, { type Ignore } from 'ignore'
import { isInside } from '../../permission/paths'

const GITIGNORE = '.gitignore'

/** One `.gitignore` that governs a folder, and how to turn a root-relative path into its terms. */
interface GitignoreRules {
  matcher: Ignore
  /** No rule has a slash (other than a trailing one): a file's own name alone decides. */
  byName: boolean
  /** See `fileRuleEndings`. */
  endings: Uint8Array | null
  /** Characters to cut from the front (a `.gitignore` in a subfolder: `a/b/` is cut). */
  cut: number
  /** Put in front (a `.gitignore` in an ancestor of the searched folder: the way down to it). */
  prefix: string
}

interface CompiledGitignore {
  matcher: Ignore
  byName: boolean
  endings: Uint8Array | null
}

/**
 * Compiled `.gitignore` files, reused while a file keeps its size and mtime. `ignore` also
 * caches its answer per path or name, so repeated searches of the same tree stay cheap.
 */
const matcherCache = new Map<string, { version: string; matcher: CompiledGitignore | null }>()
const MATCHER_CACHE_SIZE = 128

function loadMatcher(file: string): CompiledGitignore | null {
  const info = statSync(file, { throwIfNoEntry: false })
  if (!info?.isFile()) return null
  const version = `${info.size}:${info.mtimeMs}`
  const hit = matcherCache.get(file)
  if (hit && hit.version === version) return hit.matcher
  let matcher: CompiledGitignore | null = null
  try {
    const text = readFileSync(file, 'utf8')
    matcher = { matcher: ignore().add(text), byName: rulesMatchByName(text), endings: fileRuleEndings(text) }
  } catch {
    // Unreadable: as if it were not there.
  }
  matcherCache.delete(file)
  matcherCache.set(file, { version, matcher })
  if (matcherCache.size > MATCHER_CACHE_SIZE) matcherCache.delete(matcherCache.keys().next().value as string)
  return matcher
}

/**
 * True when no rule contains a slash except a trailing one. Such rules match a name at any depth,
 * so for a file in a folder that is not ignored, its name alone gives the same answer as its
 * path. Conservative: an escaped slash also counts as a slash.
 */
export function rulesMatchByName(text: string): boolean {
  for (const line of patternLines(text)) {
    const body = line.replace(/\/+$/, '')
    if (body === '' || body.includes('/')) return false
  }
  return true
}

/**
 * Which last characters (ASCII codes, as a lookup table) a file path can have when a rule of
 * this file ignores it: a rule that ends in a plain character only matches paths ending in it
 * (either case: `ignore` is case-insensitive). Negations never ignore, and folder rules
 * (`dir/`) never match a file itself, so both are left out. Null when some rule ends in a
 * wildcard, an escape, a space or a non-ASCII character: then every file must be tested.
 */
export function fileRuleEndings(text: string): Uint8Array | null {
  const endings = new Uint8Array(128)
  for (const line of patternLines(text)) {
    if (line.startsWith('!') || line.endsWith('/')) continue
    const last = line[line.length - 1]
    if (last.charCodeAt(0) >= 128 || /[\s*?\]\\]/.test(last)) return null
    endings[last.toLowerCase().charCodeAt(0)] = 1
    endings[last.toUpperCase().charCodeAt(0)] = 1
  }
  return endings
}

/** The pattern lines of a .gitignore: no comments or blank lines; line endings and unescaped trailing spaces removed, as git does. */
function patternLines(text: string): string[] {
  return text.split('\n').flatMap((raw) => {
    const line = raw.replace(/\r$/, '').replace(/(?<!\\) +$/, '')
    return line.trim() === '' || line.startsWith('#') ? [] : [line]
  })
}

/** Git's answer from a chain of `.gitignore` files, deepest first: the deepest that decides wins. */
function decide(chain: GitignoreRules[], path: string): boolean {
  for (const rules of chain) {
    const result = rules.matcher.test(
      rules.prefix ? rules.prefix + path : rules.cut ? path.slice(rules.cut) : path
    )
    if (result.ignored) return true
    if (result.unignored) return false
  }
  return false
}

function decideByName(chain: GitignoreRules[], name: string): boolean {
  for (const { matcher } of chain) {
    const result = matcher.test(name)
    if (result.ignored) return true
    if (result.unignored) return false
  }
  return false
}

/** Whether a chain ignores a file (in a folder that is not ignored), with the cheap answers first. */
class FileTest {
  private readonly endings: Uint8Array | null
  private readonly byName: boolean
  private readonly nameAnswers = new Map<string, boolean>()

  constructor(private readonly chain: GitignoreRules[]) {
    this.byName = chain.every((rules) => rules.byName)
    // Any file of the chain that can ignore a path ending in a character makes it worth a test.
    const endings = chain.some((rules) => rules.endings === null) ? null : new Uint8Array(128)
    if (endings) for (const rules of chain) rules.endings!.forEach((flag, code) => (endings[code] |= flag))
    this.endings = endings
  }

  /** `cut` is where the file's name starts in `path`. */
  ignores(path: string, cut: number): boolean {
    const last = path.charCodeAt(path.length - 1)
    if (this.endings && last < 128 && this.endings[last] === 0) return false
    if (!this.byName) return decide(this.chain, path)
    // Most names repeat from folder to folder.
    const name = cut ? path.slice(cut) : path
    let ignored = this.nameAnswers.get(name)
    if (ignored === undefined) this.nameAnswers.set(name, (ignored = decideByName(this.chain, name)))
    return ignored
  }
}

function parentOf(relDir: string): string {
  const cut = relDir.lastIndexOf('/')
  return cut < 0 ? '' : relDir.slice(0, cut)
}

type Listing<E> = (error: NodeJS.ErrnoException | null, entries: E[]) => void

/**
 * The `.gitignore` view of one search below `root`. Paths are relative to `root`, POSIX.
 * `readdir` is handed to fast-glob as its file system: every folder the walk lists reports its
 * `.gitignore` on the way (no extra lookups), and ignored subfolders are dropped from the
 * listing so they are never walked. Folders the walk did not list (above a pattern's base, or
 * for patterns without wildcards) are looked up on demand.
 */
export class GitignoreScope {
  private readonly sources = new Map<string, CompiledGitignore | null>()
  private readonly fileTests = new WeakMap<GitignoreRules[], FileTest>()
  private readonly chains = new Map<string, GitignoreRules[]>()
  private readonly ignoredDirs = new Map<string, boolean>([['', false]])
  private readonly ancestorRules: GitignoreRules[]
  private readonly rootPrefixLength: number

  /** `realRoot` and `workspaceRoot` are real paths; `.gitignore` files between them also apply. */
  constructor(
    private readonly root: string,
    realRoot: string,
    workspaceRoot: string
  ) {
    this.ancestorRules = ancestorRules(realRoot, workspaceRoot)
    this.rootPrefixLength = root.endsWith(sep) ? root.length : root.length + 1
  }

  /** The `.gitignore` files that govern the files directly in `relDir`, deepest first. */
  rulesFor(relDir: string): GitignoreRules[] {
    let chain = this.chains.get(relDir)
    if (chain) return chain
    const inherited = relDir === '' ? this.ancestorRules : this.rulesFor(parentOf(relDir))
    const own = this.sourceAt(relDir)
    chain = own ? [{ ...own, cut: relDir ? relDir.length + 1 : 0, prefix: '' }, ...inherited] : inherited
    this.chains.set(relDir, chain)
    return chain
  }

  /** True when `relDir` or a folder above it (below root) is ignored: nothing inside can come back. */
  isDirectoryIgnored(relDir: string): boolean {
    const known = this.ignoredDirs.get(relDir)
    if (known !== undefined) return known
    const parent = parentOf(relDir)
    const ignored = this.isDirectoryIgnored(parent) || decide(this.rulesFor(parent), `${relDir}/`)
    this.ignoredDirs.set(relDir, ignored)
    return ignored
  }

  /** The files of one folder (root-relative paths, all directly in `relDir`) that are not ignored. */
  keep(relDir: string, files: string[]): string[] {
    if (this.isDirectoryIgnored(relDir)) return []
    const chain = this.rulesFor(relDir)
    if (chain.length === 0) return files
    // Folders share one chain object when none of them adds a .gitignore.
    let test = this.fileTests.get(chain)
    if (!test) this.fileTests.set(chain, (test = new FileTest(chain)))
    const cut = relDir ? relDir.length + 1 : 0
    let kept: string[] | null = null
    for (let i = 0; i < files.length; i++) {
      const file = files[i]
      if (test.ignores(file, cut)) kept ??= files.slice(0, i)
      else kept?.push(file)
    }
    return kept ?? files
  }

  /** fast-glob's `fs.readdir` (both ways it calls it: with file types, or names only). */
  readonly readdir: fg.FileSystemAdapter['readdir'] = (
    path: string,
    optionsOrCallback: { withFileTypes: true } | Listing<string>,
    maybeCallback?: Listing<Dirent>
  ): void => {
    if (typeof optionsOrCallback === 'function')
      readdir(path, (error, names) => optionsOrCallback(error, error ? names : this.listed(path, names)))
    else if (maybeCallback)
      readdir(path, optionsOrCallback, (error, entries) =>
        maybeCallback(error, error ? entries : this.listed(path, entries))
      )
  }

  /** A folder's entries minus its ignored subfolders; noting its `.gitignore` on the way. */
  private listed<E extends Dirent | string>(path: string, entries: E[]): E[] {
    try {
      return this.noteListing(this.relativeDir(path), entries)
    } catch {
      return entries // the listing stays whole; files are filtered again after the walk anyway
    }
  }

  private relativeDir(path: string): string {
    if (path.length < this.rootPrefixLength) return ''
    const rel = path.slice(this.rootPrefixLength)
    return sep === '/' ? rel : rel.split(sep).join('/')
  }

  private noteListing<E extends Dirent | string>(relDir: string, entries: E[]): E[] {
    if (!this.sources.has(relDir)) {
      const hasGitignore = entries.some(
        (entry) => (typeof entry === 'string' ? entry : entry.name) === GITIGNORE
      )
      this.sources.set(relDir, hasGitignore ? loadMatcher(join(this.root, relDir, GITIGNORE)) : null)
    }
    if (this.rulesFor(relDir).length === 0) return entries
    const base = relDir ? `${relDir}/` : ''
    const dropped = (entry: Dirent | string): boolean =>
      typeof entry !== 'string' && entry.isDirectory() && this.isDirectoryIgnored(base + entry.name)
    return entries.some(dropped) ? entries.filter((entry) => !dropped(entry)) : entries
  }

  private sourceAt(relDir: string): CompiledGitignore | null {
    let matcher = this.sources.get(relDir)
    if (matcher === undefined) {
      matcher = loadMatcher(join(this.root, relDir, GITIGNORE))
      this.sources.set(relDir, matcher)
    }
    return matcher
  }
}

/** `.gitignore` files in the folders above `root` up to the workspace root, deepest first. */
function ancestorRules(root: string, workspaceRoot: string): GitignoreRules[] {
  if (!isInside(root, workspaceRoot) || root === workspaceRoot) return []
  const chain: GitignoreRules[] = []
  for (let dir = dirname(root); isInside(dir, workspaceRoot); dir = dirname(dir)) {
    const compiled = loadMatcher(join(dir, GITIGNORE))
    if (compiled) chain.push({ ...compiled, cut: 0, prefix: `${relative(dir, root).split(sep).join('/')}/` })
    if (dir === workspaceRoot) break
  }
  return chain
}
