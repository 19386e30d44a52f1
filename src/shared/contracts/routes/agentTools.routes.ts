import { z } from 'zod'
import { defineRoute } from '../define'
import { AgentToolInfo } from '../../types/agentTools'

const toolsOut = z.object({ tools: z.array(AgentToolInfo) })

/** The built-in tools with their on/off state for new sessions. */
export const agentToolsList = defineRoute({
  name: 'agentTools.list',
  input: z.object({}).strict(),
  output: toolsOut
})

/** Switches a built-in tool on or off for new sessions; unknown names are refused. */
export const agentToolsSetEnabled = defineRoute({
  name: 'agentTools.setEnabled',
  input: z.object({ name: z.string().min(1).max(100), enabled: z.boolean() }).strict(),
  output: toolsOut
})
