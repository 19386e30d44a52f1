import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { AppError } from '@shared/errors'
import type { McpServerConfig } from '@shared/types/mcp'
import { expandVariables, mergePaths } from './shellEnv'
import { sizeCappedFetch } from './httpSizeGuard'

export interface TransportDeps {
  /** Base env for stdio servers (login-shell PATH and a few safe variables). */
  baseEnv: () => Promise<Record<string, string>>
  /** Creates a built-in server by its command name, or undefined if there is none. */
  createInMemoryServer?: (name: string) => McpServer | undefined
  /** The app's network door (its proxy) for http/sse servers and their OAuth; plain fetch when absent. */
  fetch?: typeof globalThis.fetch
}

export async function createStdioTransport(
  config: McpServerConfig,
  deps: TransportDeps
): Promise<StdioClientTransport> {
  const base = await deps.baseEnv()
  const lookup = { ...base, ...config.env }
  const env: Record<string, string> = { ...base }
  for (const [name, value] of Object.entries(config.env)) env[name] = expandVariables(value, base)
  // A configured PATH goes in front of the login PATH rather than replacing it.
  if (config.env.PATH) env.PATH = mergePaths(expandVariables(config.env.PATH, base), base.PATH)
  return new StdioClientTransport({
    command: expandVariables(config.command, lookup),
    args: config.args.map((arg) => expandVariables(arg, lookup)),
    env,
    cwd: config.cwd ? expandVariables(config.cwd, lookup) : undefined,
    stderr: 'pipe'
  })
}

export function createHttpTransport(
  config: McpServerConfig,
  kind: 'http' | 'sse',
  authProvider?: OAuthClientProvider,
  baseFetch: typeof globalThis.fetch = globalThis.fetch
): StreamableHTTPClientTransport | SSEClientTransport {
  const url = new URL(config.url)
  const requestInit: RequestInit = { headers: config.headers }
  const fetch = sizeCappedFetch(baseFetch)
  return kind === 'http'
    ? new StreamableHTTPClientTransport(url, { requestInit, authProvider, fetch })
    : new SSEClientTransport(url, { requestInit, authProvider, fetch })
}

/** Starts a built-in server in this process and returns the client end of the linked pair. */
export async function createInMemoryTransport(
  config: McpServerConfig,
  deps: TransportDeps
): Promise<{ transport: Transport; server: McpServer }> {
  const server = deps.createInMemoryServer?.(config.command)
  if (!server)
    throw new AppError(
      'mcp_unknown_builtin',
      `Built-in MCP server "${config.command}" is not available in this app`
    )
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair()
  await server.connect(serverEnd)
  return { transport: clientEnd, server }
}
