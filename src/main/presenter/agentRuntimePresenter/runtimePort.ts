import {
  toolsPlanUpdated,
  toolsProcessChanged,
  type PlanSnapshot
} from '@shared/contracts/events/tools.events'
import type { EventSink } from '../../bridge/events'
import { Hook } from '../hook'
import type { TapePresenter } from '../tapePresenter'
import type { AgentToolRuntimePort, TapeSearchPortOptions } from '../toolPresenter/runtimePorts'

export interface LoopPortDeps {
  events: EventSink
  tape: Pick<TapePresenter, 'append' | 'search' | 'context' | 'handoff'>
  /** A session's tape id (subagents write to their fork tape). */
  tapeOf: (sessionId: string) => string
  log?: (message: string) => void
}

/**
 * The parts of AgentToolRuntimePort the chat loop owns. Plans are announced (`onPlanPublished`:
 * the chat loop puts them in the running turn's plan block); file snapshots and handoffs go to
 * the session tape.
 */
export class LoopRuntimePort implements AgentToolRuntimePort {
  private readonly planned: Hook<PlanSnapshot>

  constructor(private readonly deps: LoopPortDeps) {
    this.planned = new Hook('runtimePort.onPlanPublished', deps.log)
  }

  /** A plan the model wrote (`update_plan`). */
  onPlanPublished(listener: (snapshot: PlanSnapshot) => void): () => void {
    return this.planned.on(listener)
  }

  recordFileSnapshot(snapshot: Parameters<AgentToolRuntimePort['recordFileSnapshot']>[0]): void {
    this.deps.tape.append(this.deps.tapeOf(snapshot.sessionId), {
      kind: 'event',
      name: 'file/snapshot',
      payload: { name: 'file/snapshot', data: { ...snapshot } },
      provenanceKey: `file:${snapshot.toolCallId}:${snapshot.path}`
    })
  }

  publishPlan(snapshot: PlanSnapshot): void {
    this.deps.events.emit(toolsPlanUpdated, snapshot)
    this.planned.fire(snapshot)
  }

  notifyProcessChanged(
    event: Parameters<NonNullable<AgentToolRuntimePort['notifyProcessChanged']>>[0]
  ): void {
    this.deps.events.emit(toolsProcessChanged, event)
  }

  async searchTape(sessionId: string, query: string, options: TapeSearchPortOptions = {}) {
    const hits = this.deps.tape.search(this.deps.tapeOf(sessionId), query, {
      limit: options.limit,
      kinds: options.kinds
    })
    return hits.map((h) => ({
      entryId: h.entryId,
      kind: h.kind,
      name: h.name ?? '',
      createdAt: h.createdAt,
      summary: h.summary
    }))
  }

  async getTapeContext(
    sessionId: string,
    entryIds: number[],
    options: { before?: number; after?: number } = {}
  ) {
    return this.deps.tape.context(this.deps.tapeOf(sessionId), entryIds, options)
  }

  /** Takes effect at the next run: the context builder starts after the latest handoff anchor. */
  async handoffTape(sessionId: string, name: string, summary: string) {
    const anchor = this.deps.tape.handoff(this.deps.tapeOf(sessionId), {
      name,
      summary,
      whenNoSummary: 'extract'
    })
    return { entryId: anchor.entryId }
  }
}
