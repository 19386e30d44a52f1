import { dirname, relative, sep } from 'node:path'
import { z } from 'zod'
import { TOOL } from '@shared/builtinTools'
import description from './descriptions/grep.md?raw'
import { realPathOf } from '../../permission/paths'
import {
  FILESYSTEM_SERVER,
  checkFiles,
  defineAgentTool,
  ok,
  pathArg,
  refuseFiles,
  resolvePath,
  type AgentTool
} from './defineTool'
import { statOrThrow } from './fsErrors'
import { offLimitsPatterns, ripgrepExcludes, type OffLimits } from './offLimits'
import { resolveBundledRipgrep, runRipgrep, type RgMatch } from './ripgrep'

export const GREP_DEFAULT_RESULTS = 100
export const GREP_MAX_RESULTS = 1_000
export const GREP_MAX_CONTEXT = 10

const input = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .describe('Regular expression (Rust syntax), or literal text when literal is true'),
  literal: z.boolean().default(false).describe('Treat the pattern as plain text'),
  case: z
    .enum(['smart', 'sensitive', 'insensitive'])
    .default('smart')
    .describe('smart: insensitive unless the pattern has capitals'),
  path: pathArg.optional().describe('File or folder to search (default: the workspace)'),
  glob: z.string().optional().describe('Only files whose path matches this glob, e.g. *.ts or src/**/*.vue'),
  type: z
    .string()
    .regex(/^[a-zA-Z0-9_+-]+$/)
    .optional()
    .describe('ripgrep file type, e.g. ts, py, rust, go'),
  context: z
    .number()
    .int()
    .min(0)
    .max(GREP_MAX_CONTEXT)
    .default(0)
    .describe('Lines of context before and after each match'),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(GREP_MAX_RESULTS)
    .default(GREP_DEFAULT_RESULTS)
    .describe('Maximum number of matches')
})

export type GrepInput = z.output<typeof input>

/** `resolveRipgrep` is injectable so tests can prove the missing-binary error. */
export function createGrepTool(
  options: { resolveRipgrep?: () => Promise<string> } = {}
): AgentTool<typeof input> {
  const resolveRipgrep = options.resolveRipgrep ?? resolveBundledRipgrep
  return defineAgentTool({
    name: TOOL.grep,
    group: FILESYSTEM_SERVER,
    labelKey: 'settingsAgentTools.labels.grep',
    readOnly: true,
    parallelSafe: true,
    description,
    input,
    aliases: { maxResults: 'max_results', query: 'pattern', contextLines: 'context', pathScope: 'path' },
    refuse: (args, ctx) => refuseFiles(ctx, 'grep', [args.path ?? '.']),
    checkPermission: (args, ctx) => checkFiles(ctx, 'grep', 'read', [args.path ?? '.']),
    async execute(args, ctx) {
      const requested = resolvePath(ctx, args.path ?? '.')
      const info = await statOrThrow(requested)
      // Search the real path, so exclusions computed from real paths line up with what rg walks.
      const target = realPathOf(requested)
      const rg = await resolveRipgrep()
      // Run where the target is: the workspace itself may not exist when an outside path was approved.
      const cwd = info.isDirectory() ? target : dirname(target)
      // The app's data folder and secrets file never show up, even when the workspace holds them:
      // ripgrep skips them, and any match that still comes from there is dropped.
      const offLimits = info.isDirectory()
        ? offLimitsPatterns(ctx.files.offLimitsBelow(target), target)
        : undefined
      const outcome = await runRipgrep(
        rg,
        ripgrepArgs(args, target, offLimits),
        cwd,
        args.max_results,
        ctx.signal
      )
      const shownFiles = new Set(
        [...new Set(outcome.matches.map((m) => m.path))].filter((p) => !ctx.files.hiddenFromSearch(p, target))
      )
      const matches = outcome.matches.filter((m) => shownFiles.has(m.path))
      const workspace = realPathOf(ctx.workspaceDir)
      const shown = (p: string): string => displayPath(p, workspace)
      const text = formatMatches(matches, shown)
      const summary =
        matches.length === 0
          ? `No matches for ${args.pattern}`
          : `${matches.length}${outcome.truncated ? '+' : ''} match(es) in ${shownFiles.size} file(s)`
      const more = outcome.truncated
        ? `\n[Stopped at ${args.max_results} matches; narrow the pattern, path, glob or type.]`
        : ''
      return ok(summary, matches.length === 0 ? summary : `${text}${more}`, {
        matches: matches.map((m) => ({ ...m, path: shown(m.path) })),
        truncated: outcome.truncated
      })
    }
  })
}

export function ripgrepArgs(args: GrepInput, target: string, offLimits?: OffLimits): string[] {
  // --no-require-git: .gitignore counts even in a folder that is not (yet) a git repository.
  const out = ['--no-config', '--line-number', '--no-require-git']
  if (!/(^|[\\/])node_modules([\\/]|$)/.test(target)) out.push('--glob', '!node_modules')
  if (args.case === 'smart') out.push('--smart-case')
  else if (args.case === 'insensitive') out.push('--ignore-case')
  else out.push('--case-sensitive')
  if (args.literal) out.push('--fixed-strings')
  if (args.context > 0) out.push('--context', String(args.context))
  if (args.glob) out.push('--glob', args.glob)
  if (args.type) out.push('--type', args.type)
  if (offLimits) out.push(...ripgrepExcludes(offLimits))
  out.push('--regexp', args.pattern, '--', target)
  return out
}

function displayPath(path: string, workspace: string): string {
  const rel = relative(workspace, path)
  return rel && !rel.startsWith('..') ? rel.split(sep).join('/') : path
}

/** ripgrep-like text: file name, then `line: text` for matches and `line- text` for context. */
function formatMatches(matches: RgMatch[], shown: (p: string) => string): string {
  const out: string[] = []
  let currentFile = ''
  for (const match of matches) {
    if (match.path !== currentFile) {
      if (out.length) out.push('')
      out.push(shown(match.path))
      currentFile = match.path
    }
    for (const c of match.before) out.push(`${c.line}- ${c.text}`)
    out.push(`${match.line}: ${match.text}`)
    for (const c of match.after) out.push(`${c.line}- ${c.text}`)
  }
  return out.join('\n')
}
