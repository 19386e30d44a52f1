import type { McpCapabilities, McpServer } from '@agentclientprotocol/sdk'
import type { McpServerConfig } from '@shared/types/mcp'
import { expandVariables } from '../mcpPresenter/shellEnv'

/** What we pass on of one of our MCP servers (secrets filled in): McpPresenter's resolved config. */
export type AcpMcpServerSource = Pick<
  McpServerConfig,
  'id' | 'name' | 'type' | 'command' | 'args' | 'env' | 'url' | 'headers'
>

/**
 * Our MCP servers in the form `session/new` takes: stdio always; http and sse only when the
 * agent's `mcpCapabilities` says it speaks them; built-in (in-memory) servers live inside this
 * process and cannot be handed on, so they are dropped. The server id is the name, so the agent
 * names its tools as we do. `env` expands `~` and `$VAR` in commands the way our own launch does.
 */
export function mcpServersForAgent(
  servers: AcpMcpServerSource[],
  capabilities: McpCapabilities | undefined,
  env: Record<string, string>
): McpServer[] {
  const out: McpServer[] = []
  for (const server of servers) {
    if (server.type === 'stdio') {
      const lookup = { ...env, ...server.env }
      out.push({
        name: server.id,
        command: expandVariables(server.command, lookup),
        args: server.args.map((arg) => expandVariables(arg, lookup)),
        env: pairs(server.env)
      })
    } else if (
      (server.type === 'http' && capabilities?.http) ||
      (server.type === 'sse' && capabilities?.sse)
    ) {
      out.push({ type: server.type, name: server.id, url: server.url, headers: pairs(server.headers) })
    }
  }
  return out
}

function pairs(map: Record<string, string>): { name: string; value: string }[] {
  return Object.entries(map).map(([name, value]) => ({ name, value }))
}
