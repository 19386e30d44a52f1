import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { McpServerInput } from '@shared/types/mcp'
import { createTimeServer } from './timeServer'

export interface BuiltinServer {
  create(): McpServer
  /** The config entry added on first launch. */
  defaults: McpServerInput
}

/** Built-in servers, keyed by the `command` of their `inmemory` config entry. */
export const BUILTIN_SERVERS: Record<string, BuiltinServer> = {
  'deepchat-time': {
    create: () => createTimeServer(),
    defaults: {
      id: 'deepchat-time',
      name: 'Time',
      type: 'inmemory',
      command: 'deepchat-time',
      enabled: true,
      description: 'Current time and time-zone conversion',
      icon: '🕒',
      autoApproveTools: ['current_time', 'convert_time']
    }
  }
}

export function createBuiltinServer(name: string): McpServer | undefined {
  return BUILTIN_SERVERS[name]?.create()
}
