import { randomUUID } from 'node:crypto'
import { AppError } from '@shared/errors'
import type { McpServerInput } from '@shared/types/mcp'
import type { DeepLinkRequest, DeepLinkServer } from '@shared/types/desktop'
import { parseMcpServersJson } from '../presenter/mcpPresenter/importExport'
import type { PendingDeepLink } from '../platform/types'

export const DEEP_LINK_SCHEME = 'deepchat-desk'
const MAX_LINK_CHARS = 64 * 1024
const MAX_SERVERS = 10
/** Links nobody answered yet; older ones are dropped so a flood of links cannot pile up. */
const MAX_PENDING = 5

export interface McpAddLink {
  kind: 'mcp.add'
  servers: McpServerInput[]
  skipped: { name: string; reason: string }[]
  droppedAutoApprove: boolean
}

function invalid(message: string): AppError {
  return new AppError('deep_link_invalid', message)
}

/**
 * `config` is JSON, either percent-encoded or base64 / base64url. Form decoding turned base64's
 * `+` into spaces; they are put back before decoding.
 */
function decodeConfig(raw: string): unknown {
  const text = raw.trim()
  const json = /^[[{]/.test(text) ? text : Buffer.from(text.replace(/ /g, '+'), 'base64').toString('utf8')
  try {
    return JSON.parse(json)
  } catch {
    throw invalid('The link\'s "config" is neither JSON nor base64-encoded JSON')
  }
}

/** Accepts the common `{"mcpServers": {...}}` or one server `{"name": …, "command": …}`. */
function asMcpServersFile(
  config: unknown,
  nameParam: string | null
): { mcpServers: Record<string, unknown> } {
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    throw invalid('"config" must be a JSON object')
  const record = config as Record<string, unknown>
  if ('mcpServers' in record) return record as { mcpServers: Record<string, unknown> }
  const { name, ...server } = record
  const serverName = typeof name === 'string' && name.trim() ? name.trim() : nameParam?.trim()
  if (!serverName) throw invalid('A single server in "config" needs a "name" (or a name= parameter)')
  return { mcpServers: { [serverName]: server } }
}

/**
 * Parses `deepchat-desk://mcp/add?config=…` into the servers it proposes. Pure: nothing is added
 * here — the window shows the servers and adds them only after the user confirms.
 */
export function parseDeepLink(url: string): McpAddLink {
  if (url.length > MAX_LINK_CHARS) throw invalid(`The link is longer than ${MAX_LINK_CHARS} characters`)
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw invalid('Not a link')
  }
  if (parsed.protocol !== `${DEEP_LINK_SCHEME}:`) throw invalid(`Not a ${DEEP_LINK_SCHEME}:// link`)
  const action = `${parsed.hostname}${parsed.pathname.replace(/\/+$/, '')}`.toLowerCase()
  if (action !== 'mcp/add') throw invalid(`Unknown link action "${action}"; this version understands mcp/add`)
  const config = parsed.searchParams.get('config')
  if (!config) throw invalid('The link has no "config" parameter')
  const file = asMcpServersFile(decodeConfig(config), parsed.searchParams.get('name'))
  let result: ReturnType<typeof parseMcpServersJson>
  try {
    result = parseMcpServersJson(JSON.stringify(file))
  } catch (error) {
    throw invalid(error instanceof Error ? error.message : String(error))
  }
  const skipped = [...result.skipped]
  const servers = result.servers.filter((server) => {
    if (server.type !== 'inmemory') return true
    skipped.push({ name: server.name, reason: 'built-in servers cannot be added from a link' })
    return false
  })
  if (servers.length === 0) {
    throw invalid(
      `The link proposes no usable server${skipped.length ? `: ${skipped.map((s) => `${s.name} (${s.reason})`).join('; ')}` : ''}`
    )
  }
  if (servers.length > MAX_SERVERS)
    throw invalid(`The link proposes ${servers.length} servers; at most ${MAX_SERVERS} at once`)
  const droppedAutoApprove = servers.some((server) => (server.autoApproveTools ?? []).length > 0)
  return {
    kind: 'mcp.add',
    servers: servers.map((server) => ({ ...server, autoApproveTools: [] })),
    skipped,
    droppedAutoApprove
  }
}

/** The link among a new instance's arguments (Windows and Linux start a second instance with it). */
export function deepLinkFromArgv(argv: readonly string[]): string | undefined {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}://`))
}

function serverView(server: McpServerInput): DeepLinkServer {
  return {
    name: server.name,
    type: server.type,
    command: server.command ?? '',
    args: server.args ?? [],
    env: server.env ?? {},
    url: server.url ?? '',
    headerNames: Object.keys(server.headers ?? {})
  }
}

/** The servers back in the common file format, which `mcp.importJson` adds. */
function serversJson(servers: McpServerInput[]): string {
  const mcpServers: Record<string, unknown> = {}
  for (const { name, enabled, ...server } of servers)
    mcpServers[name] = { ...server, disabled: enabled === false }
  return JSON.stringify({ mcpServers })
}

/**
 * Links waiting for the user's answer. Every link becomes a request the window shows (an
 * unusable one with its reason); only `app.resolveDeepLink` with the request's id acts on it.
 */
export class DeepLinkInbox {
  private readonly pending = new Map<string, PendingDeepLink>()

  constructor(
    private readonly deps: { onReceived: (request: DeepLinkRequest) => void; newId?: () => string }
  ) {}

  receive(url: string): DeepLinkRequest {
    const id = (this.deps.newId ?? randomUUID)()
    let entry: PendingDeepLink
    try {
      const link = parseDeepLink(url)
      entry = {
        request: {
          id,
          kind: 'mcp.add',
          servers: link.servers.map(serverView),
          skipped: link.skipped,
          droppedAutoApprove: link.droppedAutoApprove
        },
        mcpServersJson: serversJson(link.servers)
      }
    } catch (error) {
      entry = {
        request: { id, kind: 'invalid', message: error instanceof Error ? error.message : String(error) }
      }
    }
    if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value!)
    this.pending.set(id, entry)
    this.deps.onReceived(entry.request)
    return entry.request
  }

  list(): DeepLinkRequest[] {
    return [...this.pending.values()].map((entry) => entry.request)
  }

  take(id: string): PendingDeepLink | undefined {
    const entry = this.pending.get(id)
    this.pending.delete(id)
    return entry
  }
}
