/** Legacy tool names skills may list, mapped to the built-in names. */
const TOOL_ALIASES: Record<string, string> = {
  find: 'glob',
  glob_search: 'glob',
  grep_search: 'grep',
  bash: 'exec',
  execute_command: 'exec',
  multiedit: 'edit',
  edit_file: 'edit',
  read_file: 'read',
  write_file: 'write'
}

export interface SkillFrontMatter {
  fields: Record<string, string | string[]>
  body: string
}

/**
 * The small YAML subset SKILL.md front matter uses: `key: value`, `key: [a, b]` and block
 * lists (`- a`). Quotes around scalars are dropped. Anything else is a clear error.
 */
export function parseFrontMatter(text: string): SkillFrontMatter {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n')
  if (!normalized.startsWith('---\n')) throw new Error('SKILL.md must start with a --- front matter block')
  const end = normalized.indexOf('\n---', 4)
  if (end === -1) throw new Error('SKILL.md front matter is not closed with ---')
  const header = normalized.slice(4, end)
  const body = normalized.slice(end + 4).replace(/^[^\n]*\n/, '')
  const fields: Record<string, string | string[]> = {}
  let listKey: string | null = null
  for (const [index, raw] of header.split('\n').entries()) {
    const line = raw.replace(/\s+#.*$/, '')
    if (!line.trim()) continue
    const item = /^\s+-\s+(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line)
    if (item && listKey) {
      ;(fields[listKey] as string[]).push(unquote(item[1]))
      continue
    }
    const pair = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(line)
    if (!pair) throw new Error(`SKILL.md front matter line ${index + 1} is not "key: value"`)
    const [, key, value] = pair
    listKey = null
    if (value === '') {
      fields[key] = []
      listKey = key
    } else if (value.startsWith('[') && value.endsWith(']')) {
      fields[key] = splitList(value.slice(1, -1))
    } else {
      fields[key] = unquote(value)
    }
  }
  return { fields, body }
}

/** `allowed-tools` as canonical tool names, whether written as a list or a comma/space string. */
export function allowedToolsOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return []
  const names = Array.isArray(value) ? value : splitList(value.replace(/\s+/g, ','))
  return [
    ...new Set(
      names
        .map((n) => n.trim())
        .filter(Boolean)
        .map((n) => TOOL_ALIASES[n.toLowerCase()] ?? n)
    )
  ]
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => unquote(s.trim()))
    .filter(Boolean)
}

function unquote(text: string): string {
  const trimmed = text.trim()
  if (
    trimmed.length >= 2 &&
    ((trimmed.startsWith('"') && trimmed.endsWith('"')) || (trimmed.startsWith("'") && trimmed.endsWith("'")))
  ) {
    return trimmed.slice(1, -1)
  }
  return trimmed
}
