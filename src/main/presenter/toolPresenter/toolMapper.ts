import { createHash } from 'node:crypto'
import type { ToolSource } from '@shared/types/tools'

export interface ToolRoute {
  source: ToolSource
  serverId: string
  /** The tool's name on its server (the MCP name before any renaming). */
  originalName: string
  /** MCP annotations, for the risk shown when asking. */
  readOnlyHint?: boolean
  destructiveHint?: boolean
}

export const MAX_TOOL_NAME = 64

/**
 * One session's map from the names the model sees to where each tool really lives. MCP tools
 * arrive already named (`<slug>__<tool>`, see mcpPresenter/toolNames.ts): a name that depends
 * only on the server's slug and the tool's own name. A taken name is never overwritten: should
 * one ever meet a built-in or another tool, it gets a hash suffix, so nothing is shadowed or dropped.
 */
export class ToolMapper {
  private readonly routes = new Map<string, ToolRoute>()

  constructor(private readonly reserved: ReadonlySet<string> = new Set()) {}

  /** Registers a built-in under its own name. */
  registerAgentTool(name: string, serverId: string): string {
    if (this.routes.has(name)) throw new Error(`agent tool ${name} registered twice`)
    this.routes.set(name, { source: 'agent', serverId, originalName: name })
    return name
  }

  /** Registers an MCP tool under its exposed name and returns the name the model will call it by. */
  registerMcpTool(
    tool: { serverId: string; name: string; exposedName: string },
    hints: Pick<ToolRoute, 'readOnlyHint' | 'destructiveHint'> = {}
  ): string {
    let exposed = tool.exposedName
    for (let attempt = 0; this.isTaken(exposed); attempt++)
      exposed = withHash(tool.exposedName, `${tool.serverId}/${tool.name}#${attempt}`)
    this.routes.set(exposed, { source: 'mcp', serverId: tool.serverId, originalName: tool.name, ...hints })
    return exposed
  }

  resolve(name: string): ToolRoute | undefined {
    return this.routes.get(name)
  }

  /** The name an MCP tool is exposed under in this mapping, if it is offered. */
  nameOf(serverId: string, originalName: string): string | undefined {
    for (const [name, route] of this.routes)
      if (route.source === 'mcp' && route.serverId === serverId && route.originalName === originalName)
        return name
    return undefined
  }

  has(name: string): boolean {
    return this.routes.has(name)
  }

  entries(): [string, ToolRoute][] {
    return [...this.routes.entries()]
  }

  clear(): void {
    this.routes.clear()
  }

  private isTaken(name: string): boolean {
    return this.routes.has(name) || this.reserved.has(name)
  }
}

function withHash(name: string, identity: string): string {
  const hash = createHash('sha1').update(identity).digest('hex').slice(0, 8)
  return `${name.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`
}
