import { existsSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { ToolError } from './defineTool'
import { asarUnpackedPath } from '../../../appResources'

/** Finds the ripgrep binary shipped by @vscode/ripgrep (unpacked from asar in packaged builds). */
export async function resolveBundledRipgrep(): Promise<string> {
  let path: string
  try {
    path = (await import('@vscode/ripgrep')).rgPath
  } catch (error) {
    throw missingRipgrep(error instanceof Error ? error.message : String(error))
  }
  path = asarUnpackedPath(path)
  if (!existsSync(path)) throw missingRipgrep(`no file at ${path}`)
  return path
}

export function missingRipgrep(detail: string): ToolError {
  return new ToolError(
    'ripgrep_missing',
    `grep is unavailable: the ripgrep binary could not be found (${detail}). Reinstall the app; do not fall back to shell search.`
  )
}

export interface RgMatch {
  path: string
  line: number
  text: string
  before: { line: number; text: string }[]
  after: { line: number; text: string }[]
}

export interface RgOutcome {
  matches: RgMatch[]
  /** True when we stopped early because `maxResults` was reached. */
  truncated: boolean
  filesWithMatches: number
}

const MAX_LINE_CHARS = 500

/** Turns `rg --json` lines into matches, attaching context lines before and after each. */
class MatchCollector {
  readonly matches: RgMatch[] = []
  readonly files = new Set<string>()
  private pendingContext: { line: number; text: string }[] = []
  private lastMatch: RgMatch | null = null

  constructor(private readonly maxResults: number) {}

  /** Returns false once `maxResults` is reached and another match arrives. */
  accept(line: string): boolean {
    let event: RgEvent
    try {
      event = JSON.parse(line) as RgEvent
    } catch {
      return true
    }
    if (event.type === 'begin') {
      this.pendingContext = []
      this.lastMatch = null
      return true
    }
    if (event.type !== 'context' && event.type !== 'match') return true
    const path = textOf(event.data.path)
    const entry = {
      line: event.data.line_number ?? 0,
      text: clip(textOf(event.data.lines).replace(/\r?\n$/, ''))
    }
    if (event.type === 'context') {
      const last = this.lastMatch
      if (last && entry.line > last.line && last.path === path) last.after.push(entry)
      else this.pendingContext.push(entry)
      return true
    }
    if (this.matches.length >= this.maxResults) return false
    // Context already attached as `after` of the previous match is not repeated as `before`.
    const last = this.lastMatch
    const before = this.pendingContext.filter((c) => !last || c.line > last.line)
    this.lastMatch = { path, ...entry, before, after: [] }
    this.pendingContext = []
    this.matches.push(this.lastMatch)
    this.files.add(path)
    return true
  }
}

/**
 * Runs `rg --json` and collects matches with their context, stopping ripgrep as soon as
 * `maxResults` matches are in hand so a broad pattern never reads the whole tree.
 */
export function runRipgrep(
  rgPath: string,
  args: string[],
  cwd: string,
  maxResults: number,
  signal?: AbortSignal
): Promise<RgOutcome> {
  return new Promise((resolve, reject) => {
    if (!existsSync(rgPath)) {
      reject(missingRipgrep(`no file at ${rgPath}`))
      return
    }
    const child = spawn(rgPath, ['--json', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal })
    const collector = new MatchCollector(maxResults)
    let truncated = false
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 4000) stderr += chunk
    })
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity })
    lines.on('line', (line) => {
      if (truncated || collector.accept(line)) return
      truncated = true
      child.kill()
    })
    child.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') reject(missingRipgrep(`cannot run ${rgPath}`))
      else if (error.name === 'AbortError') reject(new ToolError('aborted', 'grep was cancelled'))
      else reject(error)
    })
    child.on('close', (code) => {
      lines.close()
      if (signal?.aborted) return reject(new ToolError('aborted', 'grep was cancelled'))
      const { matches, files } = collector
      // Exit 2 with matches means some files could not be read: the matches are still good.
      if (truncated || code === 0 || code === 1 || (code === 2 && matches.length > 0)) {
        return resolve({ matches, truncated, filesWithMatches: files.size })
      }
      reject(new ToolError('grep_failed', `ripgrep failed: ${stderr.trim() || `exit code ${code}`}`))
    })
  })
}

type RgText = { text?: string; bytes?: string }
type RgEvent =
  | { type: 'begin' | 'end' | 'summary'; data: unknown }
  | { type: 'match' | 'context'; data: { path: RgText; lines: RgText; line_number?: number } }

function textOf(value: RgText | undefined): string {
  if (!value) return ''
  if (value.text !== undefined) return value.text
  return value.bytes ? Buffer.from(value.bytes, 'base64').toString('utf8') : ''
}

function clip(text: string): string {
  return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text
}
