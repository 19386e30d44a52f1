import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { McpServerInput } from '@shared/types/mcp'
import { createHistoryServer, type HistorySearchPort } from './historyServer'
import { createTimeServer } from './timeServer'

/** What built-in servers may use from the rest of the app; each is optional. */
export interface BuiltinDeps {
  history?: HistorySearchPort
}

export interface BuiltinServer {
  /** Undefined when what it needs is not available in this host. */
  create(deps: BuiltinDeps): McpServer | undefined
  /** The config entry added the first time this install sees the server. */
  defaults: McpServerInput & { id: string }
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
  },
  'deepchat-history': {
    create: (deps) => (deps.history ? createHistoryServer(deps.history) : undefined),
    defaults: {
      id: 'deepchat-history',
      name: 'Conversation history',
      type: 'inmemory',
      command: 'deepchat-history',
      // Off until the user opts in: it shows the model what was said in other conversations.
      enabled: false,
      description: 'Search the messages of past conversations',
      icon: '🔍',
      autoApproveTools: ['search_conversations']
    }
  }
}

export function createBuiltinServer(name: string, deps: BuiltinDeps = {}): McpServer | undefined {
  return BUILTIN_SERVERS[name]?.create(deps)
}
