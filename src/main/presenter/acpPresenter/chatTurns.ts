import type { AttachmentReader } from '../attachmentPresenter'
import type { AgentTurnBase, AgentTurnSpec, AgentTurns, TurnRun } from '../agentRuntimePresenter/agentTurns'
import { AcpTurns } from './liveTurn'
import { AcpTurnRunner, type AcpRunDeps } from './turnRunner'

export interface AcpChatTurnsDeps {
  acp: AcpRunDeps['acp']
  interactions: AcpRunDeps['interactions']
  permissions: AcpRunDeps['permissions']
  tape: AcpRunDeps['tape']
  /** Attached files of the user's message (the attachment store), read anew for each turn. */
  attachments?: () => AttachmentReader
  log?: (message: string) => void
}

/** The chat loop's agent turns: each one an AcpTurnRunner, the parked and ending ones kept here. */
export class AcpChatTurns implements AgentTurns {
  private readonly turns: AcpTurns

  constructor(private readonly deps: AcpChatTurnsDeps) {
    this.turns = new AcpTurns(deps.log)
  }

  isEnabled(agentId: string): boolean {
    return this.deps.acp.getAgent(agentId).enabled
  }

  start(base: AgentTurnBase, spec: AgentTurnSpec): TurnRun {
    const { acp, interactions, permissions, tape } = this.deps
    return new AcpTurnRunner(
      {
        ...base,
        acp,
        turns: this.turns,
        interactions,
        permissions,
        tape,
        attachments: this.deps.attachments?.()
      },
      spec
    )
  }

  stopParked(messageId: string): void {
    this.turns.stopParked(messageId)
  }

  forgetSession(sessionId: string): void {
    this.turns.forgetSession(sessionId)
  }

  dispose(): void {
    this.turns.dispose()
  }
}
