import { AppError } from '@shared/errors'
import type { SubagentPort } from '../toolPresenter/runtimePorts'
import type { SubagentPresenter } from './index'

/** The tools' view of subagents: a session only sees and steers its own runs. */
export function createSubagentPort(subagents: SubagentPresenter): SubagentPort {
  const own = (sessionId: string, runId: string) => {
    const run = subagents.getRun(runId)
    if (run.parentSessionId !== sessionId)
      throw new AppError('subagent_run_not_found', `No subagent run ${runId} in this session`)
    return run
  }
  return {
    available: (sessionId) => subagents.isAvailable(sessionId),
    slots: (sessionId) =>
      subagents
        .getSlots(sessionId)
        .slots.map(({ id, displayName, description }) => ({ id, displayName, description })),
    run: (sessionId, request, options) => subagents.start(sessionId, request, options),
    list: (sessionId) => subagents.listRuns(sessionId),
    info: (sessionId, runId) => own(sessionId, runId),
    wait: (sessionId, runId, timeoutMs, signal) => {
      own(sessionId, runId)
      return subagents.wait(runId, timeoutMs, signal)
    },
    kill: (sessionId, runId) => {
      own(sessionId, runId)
      return subagents.kill(runId)
    }
  }
}
