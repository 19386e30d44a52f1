import { z } from 'zod'
import { defineRoute } from '../define'
import { AgentToolInfo } from '../../types/agentTools'

const toolsOut = z.object({ tools: z.array(AgentToolInfo), defaultWorkspaceDir: z.string() })

/** The built-in tools with their on/off state, and the default workspace folder. */
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

/** Sets the folder new sessions work in: an existing absolute directory, or '' for none. */
export const agentToolsSetDefaultWorkspace = defineRoute({
  name: 'agentTools.setDefaultWorkspace',
  input: z.object({ path: z.string().max(4096) }).strict(),
  output: toolsOut
})
