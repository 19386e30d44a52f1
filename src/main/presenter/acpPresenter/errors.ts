import { RequestError } from '@agentclientprotocol/sdk'
import { AppError } from '@shared/errors'
import type { ExitInfo } from './launch'

/** The agent process ended while a turn was in flight (or before it answered `initialize`). */
export class AcpAgentExitedError extends AppError {
  constructor(
    readonly agentId: string,
    readonly exit: ExitInfo,
    readonly stderrTail: string[]
  ) {
    super('acp_agent_exited', exitMessage(agentId, exit, stderrTail), {
      agentId,
      exitCode: exit.code,
      signal: exit.signal,
      stderrTail
    })
    this.name = 'AcpAgentExitedError'
  }
}

export function exitMessage(agentId: string, exit: ExitInfo, stderrTail: string[]): string {
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code ?? 'unknown'}`
  const last = stderrTail.at(-1)
  return `Agent ${agentId} ${how}${last ? `: ${last}` : ''}`
}

/** JSON-RPC's auth_required (ACP -32000). */
const AUTH_REQUIRED = -32000

/** An error the agent answered a request with, as an AppError with a code the UI can act on. */
export function agentRequestError(agentId: string, method: string, error: unknown): AppError {
  if (error instanceof AppError) return error
  if (error instanceof RequestError) {
    if (error.code === AUTH_REQUIRED)
      return new AppError(
        'acp_auth_required',
        `${agentId} needs you to sign in first (run its login command in a terminal): ${error.message}`,
        { agentId, method }
      )
    return new AppError('acp_agent_error', `${agentId} refused ${method}: ${error.message}`, {
      agentId,
      method,
      code: error.code,
      data: error.data
    })
  }
  return new AppError(
    'acp_agent_error',
    `${agentId}: ${method} failed: ${String((error as Error)?.message ?? error)}`,
    {
      agentId,
      method
    }
  )
}
