import { z } from 'zod'
import { TOOL } from '@shared/builtinTools'
import description from './descriptions/tool_search.md?raw'
import { CORE_SERVER, ToolError, defineAgentTool, ok } from './defineTool'

/** Finds deferred MCP tools; the ones found are offered from the next request (a tool list change). */
export const toolSearchTool = defineAgentTool({
  name: TOOL.toolSearch,
  group: CORE_SERVER,
  labelKey: 'settingsAgentTools.labels.tool_search',
  readOnly: false,
  parallelSafe: false,
  description,
  input: z.strictObject({
    query: z.string().trim().min(1).max(500).describe('A few words for the tool you need'),
    limit: z.number().int().min(1).max(20).default(8).describe('How many tools to return')
  }),
  checkPermission: () => null,
  async execute(args, ctx) {
    const catalog = ctx.toolSearch
    if (!catalog) throw new ToolError('unavailable', 'Every tool of this chat is already offered.')
    const hits = catalog.search(args.query, args.limit)
    if (hits.length === 0)
      return ok(`No tool matches "${args.query}"`, `No tool matches "${args.query}". Try other words.`, {
        tools: []
      })
    const lines = hits.map((hit) => `- ${hit.name} (${hit.server}): ${hit.description}`)
    const text = `Found ${hits.length} of ${catalog.total()} tools; call them by these names from your next step:\n${lines.join('\n')}`
    return { ...ok(`${hits.length} tool(s) found`, text, { tools: hits }), effects: { toolsChanged: true } }
  }
})
