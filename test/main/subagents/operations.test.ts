import { describe, expect, it } from 'vitest'
import { FORK_DISCARD, FORK_MERGE } from '@shared/types/tape'
import { callsReply, textReply, toolCall, toolResults, useLoopHarness } from '../loop/helpers'
import { childBodies, parentBodies, splitScript, tapeEvents } from './helpers'
import type { FakeResponse } from '../../fixtures/llm/fakeLlm'
import type { OpenAiRequest } from '../../fixtures/llm/openAiRequest'

const harness = useLoopHarness()

const orchestrate = (id: string, args: Record<string, unknown>) =>
  callsReply(toolCall(id, 'subagent_orchestrator', args))
const backgroundTask = {
  operation: 'run',
  mode: 'parallel',
  background: true,
  tasks: [{ slotId: 'self', title: 'Digger', prompt: 'Dig it up.' }]
}
const runIdIn = (body: OpenAiRequest): string =>
  /Subagent run started: ([A-Za-z0-9_-]+)/.exec(toolResults(body)[0].content)![1]

/**
 * The parent model drives one background run with the tool's own operations, one per round:
 * the script picks the next call by how many tool results the turn already has.
 */
function operationsScript(
  child: () => FakeResponse,
  steps: ((runId: string) => Record<string, unknown> | null)[]
) {
  return splitScript({
    parent: (body) => {
      const done = toolResults(body).length
      if (done === 0) return orchestrate('op0', backgroundTask)
      const next = steps[done - 1]?.(runIdIn(body))
      return next ? orchestrate(`op${done}`, next) : textReply('Finished.')
    },
    child
  })
}

describe('subagent_orchestrator operations through the tool', () => {
  it('wait, log, list and info report a background run; an unknown run or a missing runId is a clear error', async () => {
    const h = await harness(
      operationsScript(
        () => textReply('DUG-UP-ANSWER'),
        [
          (runId) => ({ operation: 'wait', runId, timeoutMs: 10_000 }),
          (runId) => ({ operation: 'log', runId }),
          () => ({ operation: 'list' }),
          (runId) => ({ operation: 'info', runId }),
          () => ({ operation: 'info', runId: 'no-such-run' }),
          () => ({ operation: 'wait' }),
          () => null
        ]
      )
    )
    const { sessionId } = await h.send('dig in the background')
    await h.idle(sessionId)
    const [run] = h.presenters.subagents.listRuns(sessionId)
    const results = toolResults(parentBodies(h).at(-1)!).map((r) => r.content)
    expect(results).toHaveLength(7)
    expect(results[0]).toContain(`Subagent run started: ${run.runId}`)
    // wait returns the finished run with the child's answer; log repeats it.
    expect(results[1]).toContain(`Subagent run ${run.runId} (parallel): completed`)
    expect(results[1]).toContain('DUG-UP-ANSWER')
    expect(results[2]).toContain('DUG-UP-ANSWER')
    expect(results[3]).toContain(`- ${run.runId} · parallel · 1 task(s) · completed`)
    expect(results[4]).toContain('1. Digger (self): completed')
    expect(results[5]).toMatch(/No subagent run no-such-run/)
    expect(results[6]).toMatch(/wait needs runId/)
    expect(tapeEvents(h, sessionId, FORK_MERGE).map((m) => m.payload.data.result)).toEqual(['DUG-UP-ANSWER'])
  })

  it('kill through the tool cancels the running child and discards its fork', async () => {
    const stalling = { steps: [{ type: 'text' as const, text: 'still digging' }, { type: 'stall' as const }] }
    const h: Awaited<ReturnType<typeof harness>> = await harness(
      splitScript({
        parent: (body) => {
          const results = toolResults(body)
          if (results.length === 0) return orchestrate('k0', backgroundTask)
          if (results.at(-1)!.content.includes('): cancelled')) return textReply('Gave up.')
          // Wait in short rounds until the child has sent its request, so the kill hits a live child.
          const runId = runIdIn(body)
          const next =
            childBodies(h).length > 0
              ? { operation: 'kill', runId }
              : { operation: 'wait', runId, timeoutMs: 200 }
          return orchestrate(`k${results.length}`, next)
        },
        child: () => stalling
      })
    )
    const { sessionId } = await h.send('dig, then give up')
    await h.idle(sessionId)
    const [run] = h.presenters.subagents.listRuns(sessionId)
    expect(run).toMatchObject({ status: 'cancelled', tasks: [{ status: 'cancelled', tape: 'discarded' }] })
    expect(childBodies(h)).toHaveLength(1)
    expect(h.presenters.agentRuntime.isRunning(run.tasks[0].childSessionId!)).toBe(false)
    expect(toolResults(parentBodies(h).at(-1)!).at(-1)!.content).toContain(
      `Subagent run ${run.runId} (parallel): cancelled`
    )
    expect(tapeEvents(h, sessionId, FORK_DISCARD)).toHaveLength(1)
    expect(tapeEvents(h, sessionId, FORK_MERGE)).toHaveLength(0)
  })
})
