import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js'
import type { McpPromptView, McpResourceTemplateView, McpResourceView, McpToolView } from '@shared/types/mcp'
import type { McpServerTool } from '../toolPresenter/mcpToolSource'
import type { StoredServerConfig } from './configStore'
import type { ExposedToolName } from './toolNames'

type Annotations = NonNullable<McpServerTool['annotations']>

/** Only the known hint fields survive; they are hints from an untrusted server, nothing more. */
export function pickAnnotations(tool: Tool): Annotations | undefined {
  const a = tool.annotations ?? {}
  const out: Annotations = {}
  for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
    if (typeof a[key] === 'boolean') out[key] = a[key]
  }
  const title = tool.title ?? a.title
  if (typeof title === 'string') out.title = title
  return Object.keys(out).length ? out : undefined
}

/** Whether every word of `query` appears in the view's name, title, description or uri. */
export function matchesQuery(
  view: { name: string; title?: string; description?: string; uri?: string; uriTemplate?: string },
  query: string | undefined
): boolean {
  const words = (query ?? '').toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return true
  const text = [view.name, view.title, view.description, view.uri, view.uriTemplate]
    .filter(Boolean)
    .join(' ')
    .toLowerCase()
  return words.every((word) => text.includes(word))
}

export function toServerTool(
  server: StoredServerConfig,
  tool: Tool,
  exposed: ExposedToolName
): McpServerTool {
  const schema = tool.inputSchema ?? { type: 'object' }
  return {
    serverId: server.id,
    serverName: server.name,
    exposedName: exposed.name,
    ...(server.icon ? { serverIcon: server.icon } : {}),
    ...(server.description ? { serverDescription: server.description } : {}),
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: {
      ...schema,
      type: 'object',
      properties: (schema.properties as Record<string, unknown> | undefined) ?? {}
    },
    ...(pickAnnotations(tool) ? { annotations: pickAnnotations(tool) } : {})
  }
}

export function toToolView(server: StoredServerConfig, tool: Tool, exposed: ExposedToolName): McpToolView {
  return {
    serverId: server.id,
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description ?? '',
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(pickAnnotations(tool) ? { annotations: pickAnnotations(tool) } : {}),
    disabled: server.disabledTools.includes(tool.name),
    autoApproved: server.autoApproveTools.includes(tool.name) || server.autoApproveTools.includes('*'),
    exposedName: exposed.name,
    nameFlags: exposed.flags
  }
}

export function toPromptView(serverId: string, prompt: Prompt): McpPromptView {
  return {
    serverId,
    name: prompt.name,
    ...(prompt.title ? { title: prompt.title } : {}),
    ...(prompt.description ? { description: prompt.description } : {}),
    arguments: (prompt.arguments ?? []).map((a) => ({
      name: a.name,
      ...(a.description ? { description: a.description } : {}),
      ...(a.required !== undefined ? { required: a.required } : {})
    }))
  }
}

export function toResourceView(serverId: string, resource: Resource): McpResourceView {
  return {
    serverId,
    uri: resource.uri,
    name: resource.name,
    ...(resource.title ? { title: resource.title } : {}),
    ...(resource.description ? { description: resource.description } : {}),
    ...(resource.mimeType ? { mimeType: resource.mimeType } : {})
  }
}

export function toTemplateView(serverId: string, template: ResourceTemplate): McpResourceTemplateView {
  return {
    serverId,
    uriTemplate: template.uriTemplate,
    name: template.name,
    ...(template.title ? { title: template.title } : {}),
    ...(template.description ? { description: template.description } : {}),
    ...(template.mimeType ? { mimeType: template.mimeType } : {})
  }
}
