import fg from 'fast-glob'
import { z } from 'zod'
import { TOOL } from '@shared/builtinTools'
import description from './descriptions/glob.md?raw'
import {
  FILESYSTEM_SERVER,
  ToolError,
  checkFiles,
  defineAgentTool,
  ok,
  pathArg,
  refuseFiles,
  resolvePath
} from './defineTool'
import { statOrThrow } from './fsErrors'
import { createFuzzyMatcher } from './fuzzyPath'
import { GitignoreScope } from './gitignoreFilter'
import { realPathOf } from '../../permission/paths'
import { globIgnores, offLimitsPatterns, type OffLimits } from './offLimits'

export const GLOB_DEFAULT_RESULTS = 100
export const GLOB_MAX_RESULTS = 1_000
export const GLOB_ALWAYS_IGNORED = ['**/node_modules/**', '**/.git/**']
const GLOB_CHARS = /[*?[\]{}]/

const input = z.strictObject({
  pattern: z
    .string()
    .trim()
    .min(1)
    .describe('A glob such as src/**/*.ts, or a plain fuzzy path query such as chatstore'),
  path: pathArg.optional().describe('Folder to search in (default: the workspace)'),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(GLOB_MAX_RESULTS)
    .default(GLOB_DEFAULT_RESULTS)
    .describe('Maximum number of paths to return')
})

export const globTool = defineAgentTool({
  name: TOOL.glob,
  group: FILESYSTEM_SERVER,
  labelKey: 'settingsAgentTools.labels.glob',
  readOnly: true,
  parallelSafe: true,
  description,
  input,
  aliases: { maxResults: 'max_results', query: 'pattern' },
  refuse: (args, ctx) => refuseFiles(ctx, 'glob', [args.path ?? '.']),
  checkPermission: (args, ctx) => checkFiles(ctx, 'glob', 'read', [args.path ?? '.']),
  async execute(args, ctx) {
    const root = resolvePath(ctx, args.path ?? '.')
    if (!(await statOrThrow(root)).isDirectory())
      throw new ToolError('not_a_directory', `${args.path} is not a folder`)
    // The app's data folder and secrets file are never listed, even when the workspace holds them.
    const offLimits = offLimitsPatterns(ctx.files.offLimitsBelow(realPathOf(root)), realPathOf(root))
    const result = await findFiles(
      root,
      realPathOf(ctx.workspaceDir),
      args.pattern,
      args.max_results,
      ctx.signal,
      offLimits
    )
    const header =
      result.files.length === 0
        ? `No files match ${args.pattern}`
        : `${result.total} file(s) match ${args.pattern} in ${args.path ?? 'the workspace'}`
    const more =
      result.total > result.files.length
        ? [`[Showing the best ${result.files.length} of ${result.total}; narrow the pattern or path.]`]
        : []
    return ok(header, [header, ...result.files, ...more].join('\n'), {
      root,
      mode: result.mode,
      files: result.files,
      total: result.total,
      truncated: result.total > result.files.length
    })
  }
})

export interface GlobResult {
  mode: 'glob' | 'fuzzy'
  files: string[]
  total: number
}

/** Glob or fuzzy search below `root`, .gitignore applied, ranked, cut to `max`. */
export async function findFiles(
  root: string,
  workspaceRoot: string,
  pattern: string,
  max: number,
  signal?: AbortSignal,
  offLimits?: OffLimits
): Promise<GlobResult> {
  const isGlob = GLOB_CHARS.test(pattern)
  const userPattern = isGlob ? normaliseGlob(pattern) : '**/*'
  const gitignore = new GitignoreScope(root, realPathOf(root), workspaceRoot)
  const options: fg.Options = {
    cwd: root,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    suppressErrors: true,
    ignore: [...GLOB_ALWAYS_IGNORED, ...(offLimits ? globIgnores(offLimits, fg.escapePath) : [])],
    // The walk itself finds the .gitignore files and skips ignored folders.
    fs: { readdir: gitignore.readdir }
  }
  // `unique` costs a hash lookup per entry walked; only walks from several bases (`{a,a/b}/**`)
  // can reach a path twice. One walk without following links lists each path once.
  options.unique = fg.generateTasks(userPattern, options).length > 1
  const walked = await fg(userPattern, options)
  // Second check, on the results themselves: nothing below an off-limits path gets out.
  const found =
    offLimits && (offLimits.folders.length || offLimits.files.length)
      ? walked.filter((file) => !offLimits.hides(file))
      : walked
  if (signal?.aborted) throw new ToolError('aborted', 'glob was cancelled')
  const folders = keptByFolder(found, gitignore)
  if (isGlob) return { mode: 'glob', files: rankByDepth(folders, max), total: countFiles(folders) }
  const scored: { path: string; score: number }[] = []
  const score = createFuzzyMatcher(pattern)
  for (const files of folders.values()) {
    for (const file of files) {
      const value = score(file)
      if (value !== null) scored.push({ path: file, score: value })
    }
  }
  scored.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path))
  return { mode: 'fuzzy', files: scored.slice(0, max).map((s) => s.path), total: scored.length }
}

/** Results grouped by folder ('' = the searched folder), .gitignore'd files left out. */
function keptByFolder(found: string[], gitignore: GitignoreScope): Map<string, string[]> {
  const folders = new Map<string, string[]>()
  // The walk lists a folder's files together, so most files join the previous one's folder;
  // checking that with a prefix compare avoids cutting and hashing a folder name per file.
  let current: string[] = []
  let currentFolder = '\0'
  for (const file of found) {
    const cut = file.lastIndexOf('/')
    if (cut < 0 ? currentFolder === '' : cut === currentFolder.length && file.startsWith(currentFolder)) {
      current.push(file)
      continue
    }
    currentFolder = cut < 0 ? '' : file.slice(0, cut)
    const files = folders.get(currentFolder)
    if (files) (current = files).push(file)
    else folders.set(currentFolder, (current = [file]))
  }
  for (const [folder, files] of folders) folders.set(folder, gitignore.keep(folder, files))
  return folders
}

function countFiles(folders: Map<string, string[]>): number {
  let total = 0
  for (const files of folders.values()) total += files.length
  return total
}

function normaliseGlob(pattern: string): string {
  const trimmed = pattern.replace(/\\/g, '/').replace(/^\.\//, '')
  if (trimmed.startsWith('/') || /^[a-zA-Z]:\//.test(trimmed) || trimmed.split('/').includes('..')) {
    throw new ToolError(
      'invalid_pattern',
      'The pattern must be relative to the searched folder; pass the folder as path'
    )
  }
  return trimmed
}

/**
 * Shallower paths first, then by name (plain string order of the whole path). Among paths of
 * one depth, the files of a folder `d` are exactly those starting with `d/`, a contiguous run in
 * that order, and runs are ordered by `d/`. So folders are sorted, then only the folders needed
 * to fill `max` have their files sorted.
 */
function rankByDepth(folders: Map<string, string[]>, max: number): string[] {
  const order: { depth: number; key: string; files: string[] }[] = []
  for (const [folder, files] of folders) {
    if (files.length > 0)
      order.push({ depth: folder ? countSlashes(folder) + 1 : 0, key: folder ? `${folder}/` : '', files })
  }
  order.sort((a, b) => a.depth - b.depth || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  const ranked: string[] = []
  for (const { files } of order) {
    files.sort()
    for (const path of files) {
      if (ranked.length >= max) return ranked
      ranked.push(path)
    }
  }
  return ranked
}

function countSlashes(path: string): number {
  let count = 0
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) count++
  return count
}
