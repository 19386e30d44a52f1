import {
  subagentsGetRun,
  subagentsGetSlots,
  subagentsKillRun,
  subagentsListRuns,
  subagentsPendingInteractions,
  subagentsRespond,
  subagentsSetSlots
} from '@shared/contracts/routes/subagents.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerSubagentRoutes(
  router: Router,
  { subagents, agentRuntime }: Pick<Presenters, 'subagents' | 'agentRuntime'>
): void {
  router.handle(subagentsListRuns, ({ parentSessionId }) => ({ runs: subagents.listRuns(parentSessionId) }))
  router.handle(subagentsGetRun, ({ runId }) => ({ run: subagents.getRun(runId) }))
  router.handle(subagentsKillRun, async ({ runId }) => ({ run: await subagents.kill(runId) }))
  router.handle(subagentsPendingInteractions, ({ parentSessionId }) => ({
    pending: subagents.pendingInteractions(parentSessionId)
  }))
  // The child's turn resumes on the chat loop.
  router.handle(subagentsRespond, (input) => subagents.respond(input, agentRuntime))
  router.handle(subagentsGetSlots, ({ sessionId }) => ({ config: subagents.getSlots(sessionId) }))
  router.handle(subagentsSetSlots, ({ sessionId, config }) => ({
    config: subagents.setSlots(sessionId, config)
  }))
}
