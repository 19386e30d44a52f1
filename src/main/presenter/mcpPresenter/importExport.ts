import { z } from 'zod'
import { jsonrepair } from 'jsonrepair'
import { AppError } from '@shared/errors'
import type { McpServerConfig, McpServerInput, McpServerType } from '@shared/types/mcp'

/**
 * One entry of the common `{"mcpServers": {...}}` file. Claude Desktop writes
 * `{command, args, env}`; Cursor/VS Code add `type` and `url`; Cline adds `disabled` and
 * `autoApprove`. Everything unknown is ignored rather than rejected.
 */
const ImportedEntry = z.looseObject({
  type: z.string().optional(),
  transport: z.string().optional(),
  command: z.string().optional(),
  args: z.array(z.union([z.string(), z.number()]).transform(String)).optional(),
  env: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  serverUrl: z.string().optional(),
  baseUrl: z.string().optional(),
  headers: z.record(z.string(), z.union([z.string(), z.number()]).transform(String)).optional(),
  enabled: z.boolean().optional(),
  disabled: z.boolean().optional(),
  timeoutMs: z.number().optional(),
  disabledTools: z.array(z.string()).optional(),
  autoApproveTools: z.array(z.string()).optional(),
  autoApprove: z.array(z.string()).optional(),
  description: z.string().optional(),
  icon: z.string().optional()
})

const ImportFile = z.object({ mcpServers: z.record(z.string(), z.unknown()) })

const TYPE_ALIASES: Record<string, McpServerType> = {
  stdio: 'stdio',
  sse: 'sse',
  http: 'http',
  'streamable-http': 'http',
  streamablehttp: 'http',
  streamable_http: 'http',
  inmemory: 'inmemory'
}

export interface ParsedImport {
  servers: McpServerInput[]
  skipped: { name: string; reason: string }[]
}

/** Parses pasted JSON (tolerating trailing commas and comments) into server inputs. */
export function parseMcpServersJson(text: string): ParsedImport {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    try {
      raw = JSON.parse(jsonrepair(text))
    } catch {
      throw new AppError('mcp_import_invalid', 'The text is not JSON')
    }
  }
  const file = ImportFile.safeParse(raw)
  if (!file.success)
    throw new AppError('mcp_import_invalid', 'Expected an object like {"mcpServers": {"name": {...}}}')

  const servers: McpServerInput[] = []
  const skipped: ParsedImport['skipped'] = []
  for (const [name, value] of Object.entries(file.data.mcpServers)) {
    const entry = ImportedEntry.safeParse(value)
    if (!entry.success) {
      skipped.push({
        name,
        reason: entry.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
      })
      continue
    }
    const e = entry.data
    const url = e.url ?? e.serverUrl ?? e.baseUrl ?? ''
    const declared = (e.type ?? e.transport)?.toLowerCase()
    const type: McpServerType | undefined = declared
      ? TYPE_ALIASES[declared]
      : e.command
        ? 'stdio'
        : url
          ? 'http'
          : undefined
    if (!type) {
      skipped.push({
        name,
        reason: declared ? `unknown type "${declared}"` : 'neither command nor url given'
      })
      continue
    }
    servers.push({
      name,
      type,
      command: e.command ?? '',
      args: e.args ?? [],
      env: e.env ?? {},
      cwd: e.cwd,
      url,
      headers: e.headers ?? {},
      enabled: e.enabled ?? (e.disabled === undefined ? true : !e.disabled),
      timeoutMs: e.timeoutMs,
      disabledTools: e.disabledTools ?? [],
      autoApproveTools: e.autoApproveTools ?? e.autoApprove ?? [],
      description: e.description ?? '',
      icon: e.icon ?? ''
    })
  }
  return { servers, skipped }
}

/** Writes servers in the common format; remote servers get `type` so other apps read them right. */
export function formatMcpServersJson(servers: McpServerConfig[]): {
  mcpServers: Record<string, Record<string, unknown>>
} {
  const mcpServers: Record<string, Record<string, unknown>> = {}
  for (const server of servers) {
    const entry: Record<string, unknown> =
      server.type === 'stdio' || server.type === 'inmemory'
        ? {
            ...(server.type === 'inmemory' ? { type: 'inmemory' } : {}),
            command: server.command,
            args: server.args,
            env: server.env
          }
        : { type: server.type, url: server.url, headers: server.headers }
    if (server.cwd) entry.cwd = server.cwd
    if (!server.enabled) entry.disabled = true
    if (server.timeoutMs) entry.timeoutMs = server.timeoutMs
    if (server.disabledTools.length) entry.disabledTools = server.disabledTools
    if (server.autoApproveTools.length) entry.autoApproveTools = server.autoApproveTools
    if (server.description) entry.description = server.description
    if (server.icon) entry.icon = server.icon
    let key = server.name
    for (let n = 2; key in mcpServers; n++) key = `${server.name} (${n})`
    mcpServers[key] = entry
  }
  return { mcpServers }
}
