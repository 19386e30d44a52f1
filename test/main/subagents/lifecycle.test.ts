import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { FORK_DISCARD } from '@shared/types/tape'
import {
  callsReply,
  eventsOf,
  call,
  tempDir,
  textReply,
  toolCall,
  toolResults,
  useLoopHarness,
  type LoopHarness
} from '../loop/helpers'
import { childBodies, hasToolResult, parentBodies, splitScript, tapeEvents } from './helpers'
import { until } from '../../helpers/until'
import { subagentsInteractionChanged } from '@shared/contracts/events/subagents.events'
import { chatStop } from '@shared/contracts/routes/chat.routes'
import { sessionsPurge } from '@shared/contracts/routes/sessions.routes'
import { subagentsPendingInteractions, subagentsRespond } from '@shared/contracts/routes/subagents.routes'

// Stopping or deleting a parent reaches its subagent runs only through the lifecycle hooks
// createPresenters() wires (agentRuntime.onStopped, sessions.onPurged); these tests fail without them.

const harness = useLoopHarness()

const background = callsReply(
  toolCall('s1', 'subagent_orchestrator', {
    mode: 'parallel',
    background: true,
    tasks: [{ slotId: 'self', title: 'Worker', prompt: 'Work on it.' }]
  })
)
const stalling = { steps: [{ type: 'text' as const, text: 'working on it' }, { type: 'stall' as const }] }

/** Waits until the parent's background run has a child streaming, and returns both ids. */
async function childAtWork(h: LoopHarness, sessionId: string): Promise<{ runId: string; childId: string }> {
  await until(() => childBodies(h).length === 1, { timeoutMs: 10_000 })
  const [run] = h.presenters.subagents.listRuns(sessionId)
  const childId = run.tasks[0].childSessionId!
  await until(() => h.presenters.agentRuntime.isRunning(childId), { timeoutMs: 10_000 })
  return { runId: run.runId, childId }
}

async function expectCancelled(h: LoopHarness, sessionId: string, ids: { runId: string; childId: string }) {
  await until(() => h.presenters.subagents.getRun(ids.runId).status === 'cancelled', { timeoutMs: 10_000 })
  expect(h.presenters.subagents.getRun(ids.runId).tasks).toMatchObject([
    { status: 'cancelled', tape: 'discarded' }
  ])
  expect(h.presenters.agentRuntime.isRunning(ids.childId)).toBe(false)
  expect(tapeEvents(h, sessionId, FORK_DISCARD)).toHaveLength(1)
  expect(h.presenters.subagents.liveRunIds()).toEqual([])
}

describe('subagent runs follow their parent session', () => {
  it('stopping a parent that works on stops the background runs it started', async () => {
    const h = await harness(
      splitScript({
        parent: (body) => (toolResults(body).length === 0 ? background : stalling),
        child: () => stalling
      })
    )
    const { sessionId } = await h.send('start a background task, then keep going')
    const ids = await childAtWork(h, sessionId)
    await until(() => parentBodies(h).length === 2, { timeoutMs: 10_000 }) // the parent streams its next answer

    await call(h, chatStop, { sessionId })
    await expectCancelled(h, sessionId, ids)
  })

  it('stopping a parent paused on a permission request stops the background runs it started', async () => {
    const outside = join(tempDir(), 'note.txt')
    const h = await harness(
      splitScript({
        parent: (body) =>
          toolResults(body).length === 0
            ? background
            : toolResults(body).length === 1
              ? callsReply(toolCall('w1', 'write', { path: outside, content: 'x' }))
              : textReply('done'),
        child: () => stalling
      })
    )
    const { sessionId } = await h.send('start a background task, then write outside')
    const ids = await childAtWork(h, sessionId)
    await until(() => h.presenters.sessions.require(sessionId).status === 'awaiting_interaction', {
      timeoutMs: 10_000
    })

    const stopped = await call(h, chatStop, { sessionId })
    expect(stopped.stopped).toBe(true)
    await expectCancelled(h, sessionId, ids)
  })

  it('a parent with nothing to stop leaves its background runs working', async () => {
    const h = await harness(
      splitScript({
        parent: (body) => (toolResults(body).length === 0 ? background : textReply('Started.')),
        child: () => stalling
      })
    )
    const { sessionId } = await h.send('start a background task')
    await h.idle(sessionId)
    const ids = await childAtWork(h, sessionId)

    expect((await call(h, chatStop, { sessionId })).stopped).toBe(false)
    expect(h.presenters.subagents.liveRunIds()).toEqual([ids.runId])
    expect(h.presenters.agentRuntime.isRunning(ids.childId)).toBe(true)
  })

  it('deleting the parent stops its children and leaves no run behind', async () => {
    const h = await harness(
      splitScript({
        parent: (body) => (toolResults(body).length === 0 ? background : textReply('Started.')),
        child: () => stalling
      })
    )
    const { sessionId } = await h.send('start a background task')
    await h.idle(sessionId)
    const ids = await childAtWork(h, sessionId)

    const { purgedSessionIds } = await call(h, sessionsPurge, { sessionId })
    expect(purgedSessionIds).toEqual([ids.childId, sessionId])
    await until(
      () =>
        !h.presenters.agentRuntime.isRunning(ids.childId) && h.presenters.subagents.liveRunIds().length === 0,
      { timeoutMs: 10_000 }
    )
    expect(h.presenters.subagents.listRuns(sessionId)).toEqual([])
  })

  it('answering one of two child requests from the parent leaves the other one listed there', async () => {
    const [first, second] = [join(tempDir(), 'a.txt'), join(tempDir(), 'b.txt')]
    const h = await harness(
      splitScript({
        parent: (body) => (toolResults(body).length === 0 ? background : textReply('Started.')),
        child: (_handoff, body) =>
          hasToolResult(body)
            ? textReply('Both written.')
            : callsReply(
                toolCall('w1', 'write', { path: first, content: '1' }),
                toolCall('w2', 'write', { path: second, content: '2' })
              )
      })
    )
    const { sessionId } = await h.send('delegate two writes')
    await h.idle(sessionId)
    await until(() => h.presenters.subagents.listRuns(sessionId)[0]?.status === 'waiting_permission', {
      timeoutMs: 10_000
    })
    const asked = eventsOf(h, subagentsInteractionChanged).at(-1)!
    expect(asked.interactions).toHaveLength(2)

    await call(h, subagentsRespond, {
      parentSessionId: sessionId,
      childSessionId: asked.childSessionId,
      messageId: asked.interactions[0].messageId,
      interactionId: asked.interactions[0].id,
      response: { kind: 'permission', decision: 'deny' }
    })
    const latest = eventsOf(h, subagentsInteractionChanged).at(-1)!
    expect(latest.interactions.map((i: { id: string }) => i.id)).toEqual([asked.interactions[1].id])
    expect(
      (await call(h, subagentsPendingInteractions, { parentSessionId: sessionId })).pending
    ).toMatchObject([{ interactions: [{ id: asked.interactions[1].id }] }])
  })

  it('a lifecycle listener that throws neither fails the purge nor keeps the other listeners from hearing it', async () => {
    const h = await harness([textReply('ok')])
    const { sessionId } = await h.send('hi')
    await h.idle(sessionId)
    const heard: string[][] = []
    h.presenters.sessions.onPurged(() => {
      throw new Error('listener bug')
    })
    h.presenters.sessions.onPurged((ids) => heard.push(ids))
    expect(h.presenters.sessions.purge(sessionId)).toEqual([sessionId])
    expect(heard).toEqual([[sessionId]])
    expect(h.presenters.sessions.get(sessionId)).toBeUndefined()
  })
})
