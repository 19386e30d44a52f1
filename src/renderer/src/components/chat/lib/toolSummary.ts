import { jsonrepairSafe } from './jsonRepair'

/** Arguments as an object, even while they are still streaming (best effort). */
export function parseArgs(params: string): Record<string, unknown> | null {
  if (!params.trim()) return null
  try {
    const value = JSON.parse(params)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
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

export function prettyJson(params: string): string {
  const args = parseArgs(params)
  return args ? JSON.stringify(args, null, 2) : params
}

export type ToolView = 'diff' | 'terminal' | 'plain'
export function toolViewOf(name: string): ToolView {
  if (name === 'edit' || name === 'write') return 'diff'
  if (name === 'exec' || name === 'process') return 'terminal'
  return 'plain'
}
