import { existsSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { ToolError } from './defineTool'

/** Finds the ripgrep binary shipped by @vscode/ripgrep (unpacked from asar in packaged builds). */
export async function resolveBundledRipgrep(): Promise<string> {
  let path: string
  try {
    path = (await import('@vscode/ripgrep')).rgPath
  } catch (error) {
    throw missingRipgrep(error instanceof Error ? error.message : String(error))
  }
  path = path.replace(`app.asar${'/'}`, 'app.asar.unpacked/').replace('app.asar\\', 'app.asar.unpacked\\')
  if (!existsSync(path)) throw missingRipgrep(`no file at ${path}`)
  return path
}

export function missingRipgrep(detail: string): ToolError {
  return new ToolError('ripgrep_missing', `grep is unavailable: the ripgrep binary could not be found (${detail}). Reinstall the app; do not fall back to shell search.`)
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

/**
 * Runs `rg --json` and collects matches with their context, stopping ripgrep as soon as
 * `maxResults` matches are in hand so a broad pattern never reads the whole tree.
 */
export function runRipgrep(rgPath: string, args: string[], cwd: string, maxResults: number, signal?: AbortSignal): Promise<RgOutcome> {
  return new Promise((resolve, reject) => {
    if (!existsSync(rgPath)) {
      reject(missingRipgrep(`no file at ${rgPath}`))
      return
    }
    const child = spawn(rgPath, ['--json', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal })
    const matches: RgMatch[] = []
    const files = new Set<string>()
    let pendingContext: { line: number; text: string }[] = []
    let truncated = false
    let stderr = ''
    let lastMatch: RgMatch | null = null
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 4000) stderr += chunk
    })
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity })
    lines.on('line', (line) => {
      if (truncated) return
      let event: RgEvent
      try {
        event = JSON.parse(line) as RgEvent
      } catch {
        return
      }
      if (event.type === 'begin') {
        pendingContext = []
        lastMatch = null
      } else if (event.type === 'context' || event.type === 'match') {
        const path = textOf(event.data.path)
        const text = clip(textOf(event.data.lines).replace(/\r?\n$/, ''))
        const lineNumber = event.data.line_number ?? 0
        if (event.type === 'context') {
          if (lastMatch && lineNumber > lastMatch.line && lastMatch.path === path) lastMatch.after.push({ line: lineNumber, text })
          else pendingContext.push({ line: lineNumber, text })
          return
        }
        if (matches.length >= maxResults) {
          truncated = true
          child.kill()
          return
        }
        // Context lines already attached as `after` of the previous match are not repeated.
        const before = pendingContext.filter((c) => !lastMatch || c.line > lastMatch.line)
        lastMatch = { path, line: lineNumber, text, before, after: [] }
        pendingContext = []
        matches.push(lastMatch)
        files.add(path)
      }
    })
    child.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') reject(missingRipgrep(`cannot run ${rgPath}`))
      else if (error.name === 'AbortError') reject(new ToolError('aborted', 'grep was cancelled'))
      else reject(error)
    })
    child.on('close', (code) => {
      lines.close()
      if (signal?.aborted) return reject(new ToolError('aborted', 'grep was cancelled'))
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
