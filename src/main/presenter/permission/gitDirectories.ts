import { spawnSync } from 'node:child_process'
import { lstatSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path'
import { realPathOf } from './paths'

/**
 * What makes a folder a git directory to git itself (`is_git_directory` in git's setup.c):
 * `HEAD` beside `objects/` and `refs/`, or a `commondir` naming where those are. We count a
 * folder with `HEAD` and any one of the others, so a half-built repository already counts.
 */
export const GIT_DIR_MARKERS = ['HEAD', 'config', 'objects', 'refs', 'packed-refs', 'commondir', 'gitdir']

/**
 * Names compare in any case: on macOS and Windows `head` is `HEAD`, and Linux has
 * case-insensitive folders too (casefold ext4, vfat, mounted shares).
 */
export function foldName(name: string): string {
  return name.toLowerCase()
}

const FOLDED_MARKERS = new Set(GIT_DIR_MARKERS.map(foldName))
const FOLDED_HEAD = foldName('HEAD')

/** True when `name` is one of git's directory markers (`HEAD`, `config`, `objects`, ...). */
export function isGitMarker(name: string): boolean {
  return FOLDED_MARKERS.has(foldName(name))
}

/** True when folder entries named `names` make a git directory: `HEAD` and one more marker. */
export function namesMakeGitDir(names: Iterable<string>): boolean {
  let head = false
  let other = false
  for (const name of names) {
    const folded = foldName(name)
    if (folded === FOLDED_HEAD) head = true
    else if (FOLDED_MARKERS.has(folded)) other = true
  }
  return head && other
}

/** True when `dir` on disk is a git directory (see `namesMakeGitDir`). */
export function isGitDirectory(dir: string): boolean {
  if (!exists(join(dir, 'HEAD'))) return false
  return GIT_DIR_MARKERS.some((marker) => marker !== 'HEAD' && exists(join(dir, marker)))
}

/**
 * True when creating `name` in `dir` would complete a git directory: `HEAD` into a folder that
 * holds another marker, or another marker into a folder that holds `HEAD`.
 */
export function completesGitDir(dir: string, name: string): boolean {
  const folded = foldName(name)
  if (!FOLDED_MARKERS.has(folded)) return false
  if (folded !== FOLDED_HEAD) return exists(join(dir, 'HEAD'))
  return GIT_DIR_MARKERS.some((marker) => marker !== 'HEAD' && exists(join(dir, marker)))
}

/** The git directory a `.git` file points at (`gitdir: <path>`), resolved from the file's folder; null when unreadable. */
export function gitFileTarget(gitFile: string): string | null {
  try {
    const text = readFileSync(gitFile, 'utf8').slice(0, 4096)
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(text)
    return match ? realPathOf(resolve(dirname(gitFile), match[1])) : null
  } catch {
    return null
  }
}

/**
 * Where the files of a repository live: its git directory, the common directory (a linked
 * worktree keeps its config there) and the working tree the hooks run in (null for a bare one).
 */
export interface Repository {
  gitDir: string
  worktree: string | null
}

/** Files and folders git reads through a repository's config, and whether some config could not be read. */
export interface GitIndirections {
  /** Real paths: included config files, hooks folders. */
  targets: string[]
  /** Config files that exist but could not be read: their repository's worktree counts as protected. */
  unreadable: string[]
}

/** The config files of a repository, its own: `<common>/config` and `config.worktree`. */
function repositoryConfigs(gitDir: string): string[] {
  let common = gitDir
  try {
    const pointer = readFileSync(join(gitDir, 'commondir'), 'utf8').trim()
    if (pointer) common = resolve(gitDir, pointer)
  } catch {
    // No commondir: the git directory is its own common directory.
  }
  return [join(common, 'config'), join(gitDir, 'config.worktree')]
}

/**
 * The user's own git configs (`~/.gitconfig`, `$XDG_CONFIG_HOME/git/config`, `/etc/gitconfig`):
 * a relative `core.hooksPath` there points into every repository, and includes may land in the workspace.
 */
export function userGitConfigs(home: string): string[] {
  const xdg = process.env.XDG_CONFIG_HOME || join(home, '.config')
  return [join(home, '.gitconfig'), join(xdg, 'git', 'config'), '/etc/gitconfig']
}

/**
 * What git reads through `repo`'s configs (and the user's, given in `userConfigs`): the files
 * `include.path` and `includeIf.*.path` name (recursively, relative to the including file, as git
 * resolves them), the hooks folder `core.hooksPath` names (relative to the working tree, or the
 * git directory when bare; `core.worktree` moves the working tree), and any existing file another
 * value names by its first word (`core.fsmonitor = tools/watch.sh`, `diff.x.textconv = ./conv`,
 * `core.excludesFile`, ...): git runs or reads it, and which keys do is git's open-ended list.
 */
export function indirectionsOf(repo: Repository, home: string, userConfigs: string[] = []): GitIndirections {
  const result: GitIndirections = { targets: [], unreadable: [] }
  const hooksPaths: string[] = []
  const named: string[] = []
  let worktree = repo.worktree
  const visit = (file: string, depth: number, own: boolean): void => {
    const read = readConfig(file)
    if (read === 'missing') return
    if (read === 'unreadable') {
      if (own) result.unreadable.push(file)
      return
    }
    for (const { key, value } of read) {
      if (key === 'core.hookspath') hooksPaths.push(expandTilde(value, home))
      else if (key === 'core.worktree' && own)
        worktree = realPathOf(resolve(repo.gitDir, expandTilde(value, home)))
      else if (key === 'include.path' || (key.startsWith('includeif.') && key.endsWith('.path'))) {
        const target = realPathOf(resolve(dirname(file), expandTilde(value, home)))
        result.targets.push(target)
        // git stops at 10 levels of includes.
        if (depth < 10) visit(target, depth + 1, own)
      } else if (named.length < MAX_NAMED_FILES) named.push(...namedPaths(value, home))
    }
  }
  const own = repositoryConfigs(repo.gitDir)
  for (const file of own) visit(file, 0, true)
  // A worktree's common directory (its `commondir`) holds the config, refs and objects git uses.
  const common = dirname(own[0])
  if (common !== repo.gitDir) result.targets.push(realPathOf(common))
  for (const file of userConfigs) visit(file, 0, false)
  const hooksBase = worktree ?? repo.gitDir
  for (const path of hooksPaths) result.targets.push(realPathOf(resolve(hooksBase, path)))
  // Commands run from the top of the working tree: a relative program path counts from there.
  for (const path of named) {
    const target = resolve(hooksBase, path)
    if (isRegularFile(target)) result.targets.push(realPathOf(target))
  }
  return result
}

/** How many value-named paths one repository's configs may add. */
const MAX_NAMED_FILES = 500

/** The paths a config value may name: its first word (a program, without git's `!`) and the whole value. */
function namedPaths(value: string, home: string): string[] {
  const text = value.trim().replace(/^!\s*/, '')
  const first = /^"([^"]*)"|^'([^']*)'|^(\S+)/.exec(text)
  const word = first ? (first[1] ?? first[2] ?? first[3]) : ''
  return [...new Set([word, text])].filter((p) => p !== '').map((p) => expandTilde(p, home))
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

function expandTilde(value: string, home: string): string {
  if (value === '~') return home
  return value.startsWith('~/') ? join(home, value.slice(2)) : value
}

interface ConfigEntry {
  key: string
  value: string
}

type ConfigRead = ConfigEntry[] | 'missing' | 'unreadable'

/** Parsed configs by path, kept while the file's identity and times are unchanged. */
const configCache = new Map<string, { stamp: string; read: ConfigRead }>()
let gitMissing = false

/**
 * The keys of interest in one config file, read by git itself (`git config --file`, no
 * includes: we follow them ourselves), so our reading and git's cannot differ.
 */
function readConfig(file: string): ConfigRead {
  let stamp: string
  try {
    const info = statSync(file, { bigint: true })
    if (!info.isFile()) return 'unreadable'
    stamp = `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'unreadable'
  }
  const cached = configCache.get(file)
  if (cached?.stamp === stamp) return cached.read
  const read = runGitConfig(file)
  if (configCache.size > 500) configCache.clear()
  configCache.set(file, { stamp, read })
  return read
}

/** The app's environment without git's own variables (`GIT_DIR`, `GIT_CONFIG_*` would change what is read). */
function gitEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env))
    if (!name.toUpperCase().startsWith('GIT_')) env[name] = value
  // A relative PATH entry would find a `git` planted in whatever folder this runs from.
  for (const name of Object.keys(env).filter((n) => n.toUpperCase() === 'PATH'))
    env[name] = (env[name] ?? '')
      .split(delimiter)
      .filter((entry) => isAbsolute(entry))
      .join(delimiter)
  return { ...env, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' }
}

function runGitConfig(file: string): ConfigRead {
  // Without git nothing reads these configs, so nothing can run through them.
  if (gitMissing) return []
  const result = spawnSync('git', ['config', '--file', file, '--no-includes', '-z', '--list'], {
    encoding: 'utf8',
    timeout: 5000,
    env: gitEnvironment(),
    cwd: tmpdir(),
    maxBuffer: 4 * 1024 * 1024
  })
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    gitMissing = true
    return []
  }
  // Anything but success (a bad line, a timeout) fails closed.
  if (result.status !== 0) return 'unreadable'
  return result.stdout
    .split('\0')
    .filter(Boolean)
    .map((record) => {
      const newline = record.indexOf('\n')
      return newline < 0
        ? { key: record, value: '' }
        : { key: record.slice(0, newline), value: record.slice(newline + 1) }
    })
    .filter((entry) => entry.value !== '')
}

/** True when `path` exists (a link counts, whatever it points at). */
export function exists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}
