import { toolsPlanUpdated, toolsProcessChanged } from '@shared/contracts/events/tools.events'
import type { EventSink } from '../../bridge/events'
import type { McpToolSource } from './mcpToolSource'
import type { AgentToolRuntimePort } from './runtimePorts'

/**
 * The runtime port before the chat loop provides its own: plan and process changes go straight
 * to the renderer as events. File snapshots need the loop's tape context (which turn, which
 * message), so until the loop's port replaces this one they are not recorded.
 */
export function createEventRuntimePort(events: EventSink): AgentToolRuntimePort {
  return {
    recordFileSnapshot: () => {},
    publishPlan: (snapshot) => events.emit(toolsPlanUpdated, snapshot),
    notifyProcessChanged: (event) => events.emit(toolsProcessChanged, event)
  }
}

/** An MCP source with no servers, for hosts that run without McpPresenter. */
export const noMcpServers: McpToolSource = {
  listTools: async () => [],
  callTool: async (serverId) => {
    throw new Error(`MCP server ${serverId} is not available`)
  }
}
