import Ajv from 'ajv'
import { ToolSchema, type Tool } from '@modelcontextprotocol/sdk/types.js'
import type { McpSkippedTool } from '@shared/types/mcp'

/** One Ajv for checking schemas against the JSON Schema meta-schema; it compiles no tool schema. */
let metaChecker: Ajv | undefined

/**
 * Why an input schema is not a JSON Schema a provider would accept, or undefined. Checked
 * against draft-07's meta-schema, which lets later keywords (`$defs`, `prefixItems`) through;
 * a `$schema` line is ignored so a 2020-12 schema is checked by the same rules.
 */
function inputSchemaProblem(schema: Record<string, unknown>): string | undefined {
  metaChecker ??= new Ajv({ strict: false })
  const { $schema: _declared, ...body } = schema
  try {
    if (metaChecker.validateSchema(body)) return undefined
    return `inputSchema is not valid JSON Schema: ${metaChecker.errorsText(metaChecker.errors, { dataVar: 'inputSchema' })}`
  } catch (error) {
    return `inputSchema could not be checked: ${error instanceof Error ? error.message : String(error)}`
  }
}

/**
 * A tools/list page, tool by tool: a broken definition is left out with its reason instead of
 * failing the whole list (the SDK's own listTools refuses the page for one bad tool).
 */
export function splitValidTools(raw: readonly unknown[]): { tools: Tool[]; skipped: McpSkippedTool[] } {
  const tools: Tool[] = []
  const skipped: McpSkippedTool[] = []
  const seen = new Set<string>()
  raw.forEach((item, index) => {
    const rawName = (item as { name?: unknown } | null)?.name
    const name = typeof rawName === 'string' && rawName ? rawName : `#${index + 1}`
    const parsed = ToolSchema.safeParse(item)
    if (!parsed.success) {
      const reason = parsed.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join('.') || 'tool'}: ${issue.message}`)
        .join('; ')
      skipped.push({ name, reason })
      return
    }
    const tool = parsed.data
    if (!tool.name.trim()) return skipped.push({ name, reason: 'the tool has no name' })
    if (seen.has(tool.name))
      return skipped.push({ name, reason: 'another tool of this server has the same name' })
    const problem = inputSchemaProblem(tool.inputSchema)
    if (problem) return skipped.push({ name, reason: problem })
    seen.add(tool.name)
    tools.push(tool)
  })
  return { tools, skipped }
}
