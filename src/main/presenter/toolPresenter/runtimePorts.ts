import type { PlanSnapshot } from '@shared/contracts/events/tools.events'

/** The content a file had before `write` or `edit` changed it (null: it did not exist). */
export interface FileSnapshot {
  sessionId: string
  toolCallId: string
  tool: 'write' | 'edit'
  path: string
  previousContent: string | null
}

export interface TapeSearchHit {
  entryId: number
  kind: string
  name: string
  createdAt: number
  summary?: string
}

export interface SubagentSessionRequest {
  parentSessionId: string
  slotId: string
  displayName: string
  targetAgentId?: string
  workspaceDir?: string
}

/**
 * The only way agent tools reach sessions, tape, providers and subagents. The chat loop
 * implements it; tests use a small in-memory version. Optional members belong to tools that
 * later issues add (tape, subagents); a tool whose port member is missing is not offered.
 */
export interface AgentToolRuntimePort {
  /** Records a file's previous content on the tape so a turn's edits can be listed and reverted. */
  recordFileSnapshot(snapshot: FileSnapshot): Promise<void> | void
  /** Publishes the latest plan (the loop upserts the plan block and emits `tools.plan.updated`). */
  publishPlan(snapshot: PlanSnapshot): void
  /** Tells the loop a background process changed state, for the process list in the UI. */
  notifyProcessChanged?(event: { sessionId: string; processId: string; command: string; status: 'running' | 'done' | 'error' | 'killed'; exitCode: number | null }): void

  searchTape?(sessionId: string, query: string, options?: { limit?: number; kinds?: string[] }): Promise<TapeSearchHit[]>
  getTapeContext?(sessionId: string, entryIds: number[], options?: { before?: number; after?: number }): Promise<unknown>
  handoffTape?(sessionId: string, name: string, summary: string): Promise<{ entryId: number }>
  createSubagentSession?(request: SubagentSessionRequest): Promise<{ sessionId: string } | null>
  sendSessionMessage?(sessionId: string, content: string): Promise<void>
  cancelSession?(sessionId: string): Promise<void>
}
