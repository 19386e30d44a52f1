/**
 * The built-in search tools whose results number their sources, by name and the group main files
 * them under. An MCP tool is never exposed under a bare built-in name (its name is
 * `<server>__<tool>`, and a clash gets a hash suffix), so the name is what proves it built in.
 * Kept apart from `citations.ts` so the chat knows a search call without loading the parsers.
 */
const SEARCH_TOOLS = {
  knowledge_search: 'agent-knowledge',
  web_search: 'agent-web'
} as const
export type SearchToolName = keyof typeof SEARCH_TOOLS

export function isBuiltinSearch(
  call: { name: string; serverName?: string } | undefined,
  name: SearchToolName
): boolean {
  return !!call && call.name === name && (call.serverName ?? SEARCH_TOOLS[name]) === SEARCH_TOOLS[name]
}

/** Whether a call is one of the built-in searches at all. */
export function isAnySearch(call: { name: string; serverName?: string } | undefined): boolean {
  return isBuiltinSearch(call, 'knowledge_search') || isBuiltinSearch(call, 'web_search')
}
