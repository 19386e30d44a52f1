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
 * One session's map from the names the model sees to where each tool really lives. A taken name
 * is never overwritten: an MCP tool that collides (with a built-in or another server's tool) is
 * exposed as `<server>__<tool>`, made unique, so nothing is shadowed and nothing is dropped.
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

  /** Registers an MCP tool and returns the name the model will call it by. */
  registerMcpTool(
    serverId: string,
    serverName: string,
    toolName: string,
    hints: Pick<ToolRoute, 'readOnlyHint' | 'destructiveHint'> = {}
  ): string {
    const identity = `${serverId}/${toolName}`
    const plain = sanitizeToolName(toolName)
    let exposed = plain ? fitName(plain, identity) : ''
    if (!exposed || this.isTaken(exposed)) {
      const qualified = `${sanitizeToolName(serverName) || sanitizeToolName(serverId) || 'mcp'}__${plain || 'tool'}`
      exposed = fitName(qualified, identity)
      for (let attempt = 1; this.isTaken(exposed); attempt++)
        exposed = fitName(qualified, `${identity}#${attempt}`, true)
    }
    this.routes.set(exposed, { source: 'mcp', serverId, originalName: toolName, ...hints })
    return exposed
  }

  resolve(name: string): ToolRoute | undefined {
    return this.routes.get(name)
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

/** Provider APIs accept `[a-zA-Z0-9_-]{1,64}`. */
export function sanitizeToolName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '')
}

/** Cuts to 64 characters with a stable hash suffix when too long (or when forced unique). */
function fitName(name: string, identity: string, forceSuffix = false): string {
  if (name.length <= MAX_TOOL_NAME && !forceSuffix) return name
  const hash = createHash('sha1').update(identity).digest('hex').slice(0, 8)
  return `${name.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`
}
