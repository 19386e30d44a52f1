import type { AcpToolCall } from '@shared/types/acp'
import type { PermissionRequest, RiskLevel } from '@shared/types/permission'

/** How risky an agent's own tool looks by its kind (the agent decides what it really does). */
const RISK_BY_KIND: Record<AcpToolCall['kind'], RiskLevel> = {
  read: 'low',
  search: 'low',
  think: 'low',
  fetch: 'medium',
  edit: 'medium',
  move: 'medium',
  switch_mode: 'medium',
  other: 'medium',
  delete: 'high',
  execute: 'high'
}

/** The server an agent's requests carry in our permission requests and rules. */
export function agentServer(agentId: string): string {
  return `acp:${agentId}`
}

/**
 * An agent's `session/request_permission` as one of our permission requests: `type: 'mcp'`,
 * server `acp:<agent>`, the tool's kind as `originalTool`. The gate judges it like an MCP tool
 * (deny rules, full access, this chat's grants, remembered rules) and "Always allow" remembers
 * `mcp: acp:<agent>/<kind>`, a rule the user sees and can revoke in Settings › Permissions.
 */
export function agentToolRequest(input: {
  chatSessionId: string
  agentId: string
  workspaceDir: string
  toolCall: AcpToolCall
}): PermissionRequest {
  const { toolCall } = input
  const server = agentServer(input.agentId)
  const paths = [...new Set(toolCall.locations.map((l) => l.path))]
  const command = commandOf(toolCall.rawInput)
  return {
    type: 'mcp',
    tool: toolCall.title,
    server,
    originalTool: toolCall.kind,
    sessionId: input.chatSessionId,
    risk: RISK_BY_KIND[toolCall.kind],
    reason: `${input.agentId} asks to run its ${toolCall.kind} tool: ${toolCall.title}`,
    ...(paths.length ? { paths } : {}),
    ...(command ? { command, cwd: input.workspaceDir } : {}),
    suggestedRule: { kind: 'mcp', pattern: `${server}/${toolCall.kind}`, effect: 'allow' }
  }
}

/** The command line an execute tool names in its input, when it names one. */
function commandOf(rawInput: unknown): string | null {
  if (!rawInput || typeof rawInput !== 'object') return null
  const command = (rawInput as { command?: unknown }).command
  if (typeof command === 'string') return command
  if (Array.isArray(command) && command.every((c) => typeof c === 'string')) return command.join(' ')
  return null
}
