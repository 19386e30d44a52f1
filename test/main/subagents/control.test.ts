import { describe, expect, it } from 'vitest'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { FORK_DISCARD, FORK_MERGE } from '@shared/types/tape'
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
import { chatStreamDelta } from '@shared/contracts/events/chat.events'
import { subagentsInteractionChanged, subagentsRunUpdated } from '@shared/contracts/events/subagents.events'
import { chatStop } from '@shared/contracts/routes/chat.routes'
import {
  subagentsGetRun,
  subagentsKillRun,
  subagentsPendingInteractions,
  subagentsRespond
} from '@shared/contracts/routes/subagents.routes'
import type { OpenAiRequest } from '../../fixtures/llm/openAiRequest'

const harness = useLoopHarness()

const run = (args: Record<string, unknown>) => callsReply(toolCall('s1', 'subagent_orchestrator', args))
const oneTask = (extra: Record<string, unknown> = {}) => ({
  mode: 'parallel',
  tasks: [{ slotId: 'self', title: 'Writer', prompt: 'Write the note.' }],
  ...extra
})
const stalling = { steps: [{ type: 'text' as const, text: 'working on it' }, { type: 'stall' as const }] }

/** A child that writes outside the workspace (so it must ask), then answers. */
function writingChild(target: string) {
  return (_handoff: string, body: OpenAiRequest) =>
    hasToolResult(body)
      ? textReply('Note written.')
      : callsReply(toolCall('w1', 'write', { path: target, content: 'from the child' }))
}

async function waitForTask(h: LoopHarness, sessionId: string, status: string) {
  await until(
    () => h.presenters.subagents.listRuns(sessionId)[0]?.tasks.some((t) => t.status === status) ?? false,
    { timeoutMs: 10_000 }
  )
}

describe('subagent control', () => {
  it('shows a child permission request in the parent labelled with the subagent; answering it resumes the child', async () => {
    const target = join(tempDir(), 'note.txt')
    const h = await harness(
      splitScript({
        parent: (body) => (hasToolResult(body) ? textReply('All done.') : run(oneTask())),
        child: writingChild(target)
      })
    )
    const { sessionId } = await h.send('delegate a write')
    await waitForTask(h, sessionId, 'waiting_permission')
    expect(h.presenters.agentRuntime.isRunning(sessionId)).toBe(true) // the parent's call waits for the child

    const [asked] = eventsOf(h, subagentsInteractionChanged)
    expect(asked).toMatchObject({
      parentSessionId: sessionId,
      label: 'Self · Writer',
      interactions: [{ kind: 'permission', status: 'pending' }]
    })
    // Stream deltas are flushed in batches, so the progress line may land a moment after the task's status.
    const progressLines = () =>
      eventsOf(h, chatStreamDelta)
        .filter((e) => e.sessionId === sessionId)
        .flatMap((e) => e.ops)
        .map((op) =>
          op.op === 'upsert' && op.block.kind === 'tool_call' ? op.block.data?.progress : undefined
        )
        .filter((p): p is string => !!p)
    await until(() => progressLines().some((p) => p.includes('Writer (self): waiting for permission')), {
      timeoutMs: 5_000
    })
    const pending = await call(h, subagentsPendingInteractions, { parentSessionId: sessionId })
    expect(pending.pending).toHaveLength(1)
    const interaction = asked.interactions[0]
    // Only a child of this parent can be answered from here.
    await expect(
      call(h, subagentsRespond, {
        parentSessionId: 'someone-else',
        childSessionId: asked.childSessionId,
        messageId: interaction.messageId,
        interactionId: interaction.id,
        response: { kind: 'permission', decision: 'allow_once' }
      })
    ).rejects.toMatchObject({ code: 'invalid_input' })
    expect(existsSync(target)).toBe(false)

    const answer = await call(h, subagentsRespond, {
      parentSessionId: sessionId,
      childSessionId: asked.childSessionId,
      messageId: interaction.messageId,
      interactionId: interaction.id,
      response: { kind: 'permission', decision: 'allow_once' }
    })
    expect(answer).toEqual({ accepted: true, remaining: 0, resumed: true })
    await h.idle(sessionId)
    expect(readFileSync(target, 'utf8')).toBe('from the child')
    const [view] = h.presenters.subagents.listRuns(sessionId)
    expect(view).toMatchObject({
      status: 'completed',
      tasks: [{ status: 'completed', result: 'Note written.', tape: 'merged' }]
    })
    expect(eventsOf(h, subagentsInteractionChanged).at(-1)).toMatchObject({
      childSessionId: asked.childSessionId,
      interactions: []
    })
    expect(toolResults(parentBodies(h)[1])[0].content).toContain('Note written.')
  })

  it('kill stops a background run: the child is cancelled and its fork discarded', async () => {
    const h = await harness(
      splitScript({
        parent: (body) =>
          hasToolResult(body) ? textReply('Started it.') : run(oneTask({ background: true })),
        child: () => stalling
      })
    )
    const { sessionId } = await h.send('background work')
    await h.idle(sessionId) // a background run returns at once
    expect(toolResults(parentBodies(h)[1])[0].content).toContain('Subagent run started:')
    await until(() => childBodies(h).length === 1, { timeoutMs: 10_000 })
    const [started] = h.presenters.subagents.listRuns(sessionId)
    const childId = started.tasks[0].childSessionId!
    await until(() => h.presenters.agentRuntime.isRunning(childId))
    // The child's last lines reach the run (and the parent's window) while it works.
    await until(
      () => h.presenters.subagents.getRun(started.runId).tasks[0].preview.includes('working on it'),
      { timeoutMs: 10_000 }
    )
    expect(eventsOf(h, subagentsRunUpdated).some((e) => e.run.tasks[0].preview === 'working on it')).toBe(
      true
    )

    const killed = await call(h, subagentsKillRun, { runId: started.runId })
    expect(killed.run).toMatchObject({
      status: 'cancelled',
      tasks: [{ status: 'cancelled', tape: 'discarded' }]
    })
    expect(h.presenters.agentRuntime.isRunning(childId)).toBe(false)
    const [discard] = tapeEvents(h, sessionId, FORK_DISCARD)
    expect(discard.payload.data).toMatchObject({ runId: started.runId, status: 'cancelled' })
    expect(tapeEvents(h, sessionId, FORK_MERGE)).toHaveLength(0)
  })

  it('stopping the parent stops its running children', async () => {
    const h = await harness(splitScript({ parent: () => run(oneTask()), child: () => stalling }))
    const { sessionId } = await h.send('foreground work')
    await waitForTask(h, sessionId, 'running')
    const childId = h.presenters.subagents.listRuns(sessionId)[0].tasks[0].childSessionId!
    await until(() => h.presenters.agentRuntime.isRunning(childId) && childBodies(h).length === 1, {
      timeoutMs: 10_000
    })

    await call(h, chatStop, { sessionId })
    await until(() => h.presenters.subagents.listRuns(sessionId)[0].status === 'cancelled', {
      timeoutMs: 10_000
    })
    expect(h.presenters.agentRuntime.isRunning(childId)).toBe(false)
    expect(
      h.presenters.sessions
        .children(sessionId)
        .map((c) => h.presenters.sessions.messages.list(c.id).messages.at(-1)!.status)
    ).toEqual(['cancelled'])
    expect(tapeEvents(h, sessionId, FORK_DISCARD)).toHaveLength(1)
  })

  it('a foreground run past its timeout stops the child and discards its fork', async () => {
    const h = await harness(
      splitScript({
        parent: (body) => (hasToolResult(body) ? textReply('Too slow.') : run(oneTask({ timeoutMs: 300 }))),
        child: () => stalling
      })
    )
    const { sessionId } = await h.send('quick')
    await h.idle(sessionId)
    const [view] = h.presenters.subagents.listRuns(sessionId)
    expect(view).toMatchObject({ status: 'timeout', tasks: [{ status: 'timeout', tape: 'discarded' }] })
    expect(toolResults(parentBodies(h)[1])[0].content).toContain('timed out')
  })

  it('a run survives a restart: the child still waits, and answering it after the restart completes and merges', async () => {
    const target = join(tempDir(), 'after-restart.txt')
    const h = await harness(splitScript({ parent: () => run(oneTask()), child: writingChild(target) }))
    const { sessionId } = await h.send('delegate then restart')
    await waitForTask(h, sessionId, 'waiting_permission')
    const runId = h.presenters.subagents.listRuns(sessionId)[0].runId

    await h.restart()
    const after = await call(h, subagentsGetRun, { runId })
    expect(after.run).toMatchObject({
      status: 'waiting_permission',
      tasks: [{ status: 'waiting_permission', tape: 'open' }]
    })
    const [pending] = (await call(h, subagentsPendingInteractions, { parentSessionId: sessionId })).pending
    expect(pending.label).toBe('Self · Writer')
    await call(h, subagentsRespond, {
      parentSessionId: sessionId,
      childSessionId: pending.childSessionId,
      messageId: pending.interactions[0].messageId,
      interactionId: pending.interactions[0].id,
      response: { kind: 'permission', decision: 'allow_once' }
    })
    await until(() => h.presenters.subagents.getRun(runId).status === 'completed', { timeoutMs: 10_000 })
    expect(readFileSync(target, 'utf8')).toBe('from the child')
    const [merge] = tapeEvents(h, sessionId, FORK_MERGE)
    expect(merge.payload.data).toMatchObject({ runId, result: 'Note written.' })
    expect(h.presenters.subagents.getRun(runId).tasks[0]).toMatchObject({
      result: 'Note written.',
      tape: 'merged'
    })
  })

  it("wait and log report a background run's results; another session cannot see the run", async () => {
    const h = await harness(
      splitScript({
        parent: (body) => (hasToolResult(body) ? textReply('ok') : run(oneTask({ background: true }))),
        child: () => textReply('Background answer.')
      })
    )
    const { sessionId } = await h.send('bg')
    await h.idle(sessionId)
    const [started] = h.presenters.subagents.listRuns(sessionId)
    const waited = await h.presenters.subagents.wait(started.runId, 10_000)
    expect(waited).toMatchObject({
      finished: true,
      run: { status: 'completed', tasks: [{ result: 'Background answer.' }] }
    })
    const { createSubagentPort } = await import('../../../src/main/presenter/subagentPresenter/port')
    const port = createSubagentPort(h.presenters.subagents)
    expect(port.info(sessionId, started.runId).status).toBe('completed')
    const other = h.presenters.sessions.create({ title: 'other' })
    expect(() => port.info(other.id, started.runId)).toThrow(/No subagent run/)
    expect(port.list(other.id)).toEqual([])
  })
})
