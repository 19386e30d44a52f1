import { TOOL, builtinToolFacts, type ToolView } from '@shared/builtinTools'
import { jsonrepairSafe } from './jsonRepair'

/** Arguments as an object, even while they are still streaming (best effort). */
export function parseArgs(params: string): Record<string, unknown> | null {
  if (!params.trim()) return null
  try {
    const value = JSON.parse(params)
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return jsonrepairSafe(params)
  }
}

const SUMMARY_KEYS = ['command', 'path', 'file_path', 'pattern', 'query', 'url', 'question', 'name']

/** One line that says what the call does: the path, the command, the pattern… */
export function summarizeArgs(params: string): string {
  const args = parseArgs(params)
  if (!args) return params.replace(/\s+/g, ' ').slice(0, 120)
  for (const key of SUMMARY_KEYS) {
    const value = args[key]
    if (typeof value === 'string' && value.trim()) return value.replace(/\s+/g, ' ').slice(0, 120)
  }
  const first = Object.values(args).find((v) => typeof v === 'string' || typeof v === 'number')
  return first === undefined ? '' : String(first).replace(/\s+/g, ' ').slice(0, 120)
}

/** What an orchestrator call does: the tasks it runs, or the operation and the run it names. */
function summarizeOrchestrator(args: Record<string, unknown>): string {
  const tasks = Array.isArray(args.tasks) ? args.tasks : []
  const titles = tasks
    .map((t) => (t && typeof t === 'object' ? (t as { title?: unknown }).title : null))
    .filter((t): t is string => typeof t === 'string' && Boolean(t.trim()))
  if (titles.length) return titles.join(', ')
  const operation = typeof args.operation === 'string' ? args.operation : 'run'
  return [operation, typeof args.runId === 'string' ? args.runId : ''].filter(Boolean).join(' ')
}

/** The row's one-line summary of a call; some tools say more in their own terms. */
export function summarizeCall(name: string, params: string): string {
  if (name === TOOL.subagentOrchestrator) {
    const args = parseArgs(params)
    if (args) return oneLine(summarizeOrchestrator(args))
  }
  return summarizeArgs(params)
}

/**
 * The progress shown on the row beside the summary: its first line, without a lead the summary
 * already shows (a progress text that starts by repeating it reads "parallel parallel · …").
 */
export function rowProgress(progress: unknown, summary: string): string {
  if (typeof progress !== 'string') return ''
  const first = progress.split('\n')[0].trim()
  const lead = summary.trim()
  if (!lead || !first.startsWith(lead)) return first
  return first.slice(lead.length).replace(/^[\s·:,\-–—]+/, '') || first
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').slice(0, 120)
}

export function prettyJson(params: string): string {
  const args = parseArgs(params)
  return args ? JSON.stringify(args, null, 2) : params
}

export type { ToolView }
/** How the call's row shows it, as the tool's definition says. */
export function toolViewOf(name: string): ToolView {
  return builtinToolFacts(name).view
}
