import { existsSync, readdirSync } from 'node:fs'
import { existing, realOrSelf } from './realPaths'
import { basename, delimiter, dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { isInside } from '../permission/paths'

/** A toolchain folder inside a hidden one, shown read-only: `source` (real) seen at `target` (the PATH's spelling). */
export interface ToolchainBind {
  source: string
  target: string
}

/**
 * Toolchain layouts whose PATH folder runs code kept next to it, matched on the folder's path
 * inside the hidden folder it lies in (home, `/run`). `alsoShow` is relative to the PATH folder; a
 * trailing `*` matches a name prefix. A folder on PATH that no layout names is shown alone: a
 * `bin` never brings its parent, so `~/.local/bin` shows none of `~/.local/share` or `state`.
 */
const KNOWN_LAYOUTS: Array<{ entry: RegExp; alsoShow: string[] }> = [
  // pip --user, pipx, uv and an npm prefix of ~/.local keep what their scripts import here.
  {
    entry: /^\.local\/bin$/,
    alsoShow: [
      '../lib/python*',
      '../lib/node_modules',
      '../share/pipx/venvs',
      '../pipx/venvs',
      '../share/uv/tools',
      '../share/uv/python'
    ]
  },
  // macOS's pip --user: scripts in ~/Library/Python/3.x/bin, packages in its lib.
  { entry: /^Library\/Python\/[^/]+\/bin$/, alsoShow: ['..'] },
  // yarn 1's global bin links into its global folder.
  { entry: /^\.yarn\/bin$/, alsoShow: ['../../.config/yarn/global'] },
  // Version managers: their shims run versions kept under their root.
  { entry: /^\.(pyenv|rbenv|nodenv|goenv|jenv|plenv|asdf)\/(shims|bin)$/, alsoShow: ['..'] },
  { entry: /^\.(volta|bun|ghcup|elan|rye)\/bin$/, alsoShow: ['..'] },
  // cargo's binaries are rustup proxies; builds read the registry in ~/.cargo (credentials masked).
  { entry: /^\.cargo\/bin$/, alsoShow: ['..', '../../.rustup'] },
  // One installed version (nvm, sdkman, Go SDKs, conda): its bin runs its lib.
  { entry: /^\.nvm\/versions\/node\/[^/]+\/bin$/, alsoShow: ['..'] },
  { entry: /^\.sdkman\/candidates\/[^/]+\/[^/]+\/bin$/, alsoShow: ['..'] },
  { entry: /^sdk\/go[^/]*\/bin$/, alsoShow: ['..'] },
  { entry: /^(miniconda|anaconda|miniforge|mambaforge)[^/]*(\/envs\/[^/]+)?\/bin$/, alsoShow: ['..'] },
  // NixOS's system profile (/run/current-system/sw): bin links into the store, lib and share beside it.
  { entry: /^current-system\/sw\/bin$/, alsoShow: ['..'] }
]

/**
 * The folders a PATH folder needs shown, itself first: its known layout's siblings, a Python
 * virtualenv's root (the `bin` of a folder holding `pyvenv.cfg`) and an npm prefix's packages.
 */
export function toolchainShows(entry: string, hiddenAreas: string[]): string[] {
  const area = hiddenAreas.filter((dir) => isInside(entry, dir)).sort((a, b) => b.length - a.length)[0]
  const inArea = area === undefined ? null : relative(area, entry).split('\\').join('/')
  const extra = [
    ...(KNOWN_LAYOUTS.find((layout) => inArea !== null && layout.entry.test(inArea))?.alsoShow ?? [])
  ]
  if (basename(entry) === 'bin' && existsSync(join(dirname(entry), 'pyvenv.cfg'))) extra.push('..')
  else if (basename(entry) === 'bin' && existsSync(join(dirname(entry), 'lib', 'node_modules')))
    extra.push('../lib/node_modules')
  return [entry, ...extra.flatMap((rel) => expand(join(entry, rel)))]
}

/**
 * Folders on PATH that lie in a hidden area (and not in the workspace), with what their layout
 * needs. A PATH entry spelled through a symlink (NixOS `/run/current-system/sw/bin`) is shown
 * both where it really is and where PATH names it. A hidden area itself (`$HOME` on PATH) is
 * never shown.
 */
export function toolchainFolders(
  pathEnv: string,
  hiddenAreas: string[],
  workspaceDir: string
): ToolchainBind[] {
  const binds: ToolchainBind[] = []
  const needed = (path: string): boolean =>
    hiddenAreas.some((area) => isInside(path, area)) &&
    !hiddenAreas.some((area) => isInside(area, path)) &&
    !isInside(path, workspaceDir)
  for (const entry of pathEnv.split(delimiter)) {
    if (!entry || !isAbsolute(entry) || !existing(entry)) continue
    for (const spelled of new Set([realOrSelf(entry), resolve(entry)])) {
      // Folders outside the hidden ones are visible anyway (`/usr/bin`): nothing to look up.
      if (!needed(spelled)) continue
      for (const folder of toolchainShows(spelled, hiddenAreas))
        if (needed(folder) && existing(folder)) binds.push({ source: realOrSelf(folder), target: folder })
    }
  }
  return outermost(binds)
}

/** Keeps only binds whose target is not inside another one's, one per target. */
export function outermost(binds: ToolchainBind[]): ToolchainBind[] {
  const byTarget = new Map(binds.map((bind) => [bind.target, bind]))
  const unique = [...byTarget.values()].sort((a, b) => a.target.length - b.target.length)
  return unique.filter((bind, i) => !unique.slice(0, i).some((other) => isInside(bind.target, other.target)))
}

/** `dir/name*` to the existing entries of `dir` starting with `name`; any other path to itself. */
function expand(path: string): string[] {
  const name = basename(path)
  if (!name.endsWith('*')) return [path]
  const prefix = name.slice(0, -1)
  try {
    return readdirSync(dirname(path))
      .filter((entry) => entry.startsWith(prefix))
      .map((entry) => join(dirname(path), entry))
  } catch {
    return []
  }
}
