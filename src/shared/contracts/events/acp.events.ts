import { z } from 'zod'
import { defineEvent } from '../define'
import { AcpAgentView, AcpLogEntry, AcpSessionState } from '../../types/acp'

/** An agent's settings or status changed (process started, ended, crashed); `agent` null: removed. */
export const acpAgentChanged = defineEvent({
  name: 'acp.agent.changed',
  payload: z.object({ agentId: z.string(), agent: AcpAgentView.nullable() })
})

/** New protocol log entries of an agent (batched, at most a few per second). */
export const acpLogAppended = defineEvent({
  name: 'acp.log.appended',
  payload: z.object({ agentId: z.string(), entries: z.array(AcpLogEntry) })
})

/** A chat's agent session changed: modes, models, slash commands, config options or title. */
export const acpSessionChanged = defineEvent({
  name: 'acp.session.changed',
  payload: z.object({ state: AcpSessionState })
})
