import fg from 'fast-glob'
import { z } from 'zod'
import description from './descriptions/glob.md?raw'
import { FILESYSTEM_SERVER, ToolError, checkFiles, defineAgentTool, ok, resolvePath } from './defineTool'
import { statOrThrow } from './fsErrors'
import { createFuzzyMatcher } from './fuzzyPath'
import { gitignoreFilterFor } from './gitignoreFilter'
import { realPathOf } from '../../permission/paths'

export const GLOB_DEFAULT_RESULTS = 100
export const GLOB_MAX_RESULTS = 1_000
export const GLOB_ALWAYS_IGNORED = ['**/node_modules/**', '**/.git/**']
const GLOB_CHARS = /[*?[\]{}]/

const input = z.strictObject({
  pattern: z.string().trim().min(1).describe('A glob such as src/**/*.ts, or a plain fuzzy path query such as chatstore'),
  path: z.string().optional().describe('Folder to search in (default: the workspace)'),
  max_results: z.number().int().min(1).max(GLOB_MAX_RESULTS).default(GLOB_DEFAULT_RESULTS).describe('Maximum number of paths to return')
})

export const globTool = defineAgentTool({
  name: 'glob',
  server: FILESYSTEM_SERVER,
  readOnly: true,
  description,
  input,
  aliases: { maxResults: 'max_results', query: 'pattern' },
  checkPermission: (args, ctx) => checkFiles(ctx, 'glob', 'read', [args.path ?? '.']),
  async execute(args, ctx) {
    const root = resolvePath(ctx, args.path ?? '.')
    if (!(await statOrThrow(root)).isDirectory()) throw new ToolError('not_a_directory', `${args.path} is not a folder`)
    const result = await findFiles(root, realPathOf(ctx.workspaceDir), args.pattern, args.max_results, ctx.signal)
    const header = result.files.length === 0 ? `No files match ${args.pattern}` : `${result.total} file(s) match ${args.pattern} in ${args.path ?? 'the workspace'}`
    const more = result.total > result.files.length ? [`[Showing the best ${result.files.length} of ${result.total}; narrow the pattern or path.]`] : []
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
export async function findFiles(root: string, workspaceRoot: string, pattern: string, max: number, signal?: AbortSignal): Promise<GlobResult> {
  const isGlob = GLOB_CHARS.test(pattern)
  const userPattern = isGlob ? normaliseGlob(pattern) : '**/*'
  const found = await fg(userPattern, {
    cwd: root,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    suppressErrors: true,
    ignore: GLOB_ALWAYS_IGNORED
  })
  if (signal?.aborted) throw new ToolError('aborted', 'glob was cancelled')
  const filter = gitignoreFilterFor(realPathOf(root), workspaceRoot, gitignoreCandidates(found))
  const files = filter.empty ? found : found.filter((f) => !filter.ignores(f))
  if (isGlob) return { mode: 'glob', files: rankByDepth(files, max), total: files.length }
  const scored: { path: string; score: number }[] = []
  const score = createFuzzyMatcher(pattern)
  for (const file of files) {
    const value = score(file)
    if (value !== null) scored.push({ path: file, score: value })
  }
  scored.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path))
  return { mode: 'fuzzy', files: scored.slice(0, max).map((s) => s.path), total: scored.length }
}

/**
 * The only `.gitignore` files that can affect these results sit in a folder that contains one
 * of them: the searched folder and every folder on the way down to a result. Looking just there
 * avoids a second walk of the whole tree.
 */
function gitignoreCandidates(found: string[]): string[] {
  const dirs = new Set<string>([''])
  for (const file of found) {
    let cut = file.lastIndexOf('/')
    while (cut > 0) {
      const dir = file.slice(0, cut)
      if (dirs.has(dir)) break
      dirs.add(dir)
      cut = dir.lastIndexOf('/')
    }
  }
  return [...dirs].map((dir) => (dir ? `${dir}/.gitignore` : '.gitignore'))
}

function normaliseGlob(pattern: string): string {
  const trimmed = pattern.replace(/\\/g, '/').replace(/^\.\//, '')
  if (trimmed.startsWith('/') || /^[a-zA-Z]:\//.test(trimmed) || trimmed.split('/').includes('..')) {
    throw new ToolError('invalid_pattern', 'The pattern must be relative to the searched folder; pass the folder as path')
  }
  return trimmed
}

/**
 * Shallower paths first, then by name. Paths are bucketed by depth in one pass and only the
 * buckets needed to fill `max` are sorted, with the engine's native string sort.
 */
function rankByDepth(files: string[], max: number): string[] {
  const buckets: string[][] = []
  for (const path of files) (buckets[countSlashes(path)] ??= []).push(path)
  const ranked: string[] = []
  for (const bucket of buckets) {
    if (!bucket) continue
    bucket.sort()
    for (const path of bucket) {
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
