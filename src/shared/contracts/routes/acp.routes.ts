import { z } from 'zod'
import { defineRoute } from '../define'
import {
  AcpAgentView,
  AcpCustomAgentInput,
  AcpCustomAgentPatch,
  AcpEnvMap,
  AcpInstallState,
  AcpLogEntry,
  AcpSessionState
} from '../../types/acp'

const agentId = z.string().min(1).max(64)
const agentOut = z.object({ agent: AcpAgentView })
const chatAgent = { chatSessionId: z.string().min(1).max(200), agentId }

/** Every agent (registry and custom) with its settings and live status. */
export const acpList = defineRoute({
  name: 'acp.list',
  input: z.object({}).strict(),
  output: z.object({ agents: z.array(AcpAgentView) })
})

/** Turning an agent off stops its processes. */
export const acpSetEnabled = defineRoute({
  name: 'acp.setEnabled',
  input: z.object({ agentId, enabled: z.boolean() }).strict(),
  output: agentOut
})

export const acpAddAgent = defineRoute({
  name: 'acp.addAgent',
  input: z.object({ agent: AcpCustomAgentInput }).strict(),
  output: agentOut
})

/** Changes a custom agent; its running processes stop so the next message uses the change. */
export const acpUpdateAgent = defineRoute({
  name: 'acp.updateAgent',
  input: z.object({ agentId, patch: AcpCustomAgentPatch }).strict(),
  output: agentOut
})

export const acpRemoveAgent = defineRoute({
  name: 'acp.removeAgent',
  input: z.object({ agentId }).strict(),
  output: z.object({ removed: z.literal(true) })
})

/** The user's env on top of the agent's own; secret-looking values go to secret storage, the mask keeps one. */
export const acpSetEnvOverrides = defineRoute({
  name: 'acp.setEnvOverrides',
  input: z.object({ agentId, env: AcpEnvMap }).strict(),
  output: agentOut
})

/** Whether each agent (or one) can start here: its program or npx/uvx on the login-shell PATH. */
export const acpCheckInstall = defineRoute({
  name: 'acp.checkInstall',
  input: z.object({ agentId: agentId.optional() }).strict(),
  output: z.object({ results: z.array(z.object({ agentId: z.string(), install: AcpInstallState })) })
})

/** The agent's recent protocol messages (newest last); pass the last `seq` seen to get only new ones. */
export const acpProtocolLog = defineRoute({
  name: 'acp.protocolLog',
  input: z
    .object({
      agentId,
      afterSeq: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(500).optional()
    })
    .strict(),
  output: z.object({ entries: z.array(AcpLogEntry) })
})

/** Stops every process of the agent (whole process trees); the next message starts it again. */
export const acpStopAgent = defineRoute({
  name: 'acp.stopAgent',
  input: z.object({ agentId }).strict(),
  output: agentOut
})

/** A chat's session with an agent (modes, models, commands), or null before its first message. */
export const acpGetSession = defineRoute({
  name: 'acp.getSession',
  input: z.object(chatAgent).strict(),
  output: z.object({ state: AcpSessionState.nullable() })
})

export const acpSetSessionMode = defineRoute({
  name: 'acp.setSessionMode',
  input: z.object({ ...chatAgent, modeId: z.string().min(1).max(200) }).strict(),
  output: z.object({ state: AcpSessionState })
})

export const acpSetSessionModel = defineRoute({
  name: 'acp.setSessionModel',
  input: z.object({ ...chatAgent, modelId: z.string().min(1).max(200) }).strict(),
  output: z.object({ state: AcpSessionState })
})
