import type { OfferedTool } from '@shared/types/agentTools'
import type { MCPToolDefinition } from '@shared/types/tools'

const MAX_TITLE = 80

/** A definition of the model's tool list as the tools popover shows it. */
export function offeredTool(definition: MCPToolDefinition, labelKey?: string): OfferedTool {
  const { name, description } = definition.function
  return {
    name,
    source: definition.source === 'mcp' ? 'mcp' : 'agent',
    ...(labelKey ? { labelKey } : {}),
    title: definition.annotations?.title?.trim() || firstLine(description) || name,
    serverId: definition.server.id,
    serverName: definition.server.name
  }
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? ''
  return line.length > MAX_TITLE ? `${line.slice(0, MAX_TITLE - 1)}…` : line
}
