import { describe, expect, it } from 'vitest'
import { FORK_DISCARD, FORK_MERGE, FORK_START } from '@shared/types/tape'
import {
  callsReply,
  call,
  callUnchecked,
  textReply,
  toolCall,
  toolResults,
  useLoopHarness
} from '../loop/helpers'
import {
  childBodies,
  hasToolResult,
  lastIsToolResult,
  parentBodies,
  splitScript,
  tapeEvents,
  toolNames,
  userTexts
} from './helpers'
import { subagentsSetSlots } from '@shared/contracts/routes/subagents.routes'

const harness = useLoopHarness()

const run = (args: Record<string, unknown>) => callsReply(toolCall('s1', 'subagent_orchestrator', args))

describe('subagent_orchestrator runs', () => {
  it('runs two parallel subagents on fork tapes and merges both results into the parent tape', async () => {
    const h = await harness(
      splitScript({
        parent: (body) =>
          hasToolResult(body)
            ? textReply('Both done.')
            : run({
                mode: 'parallel',
                tasks: [
                  { slotId: 'self', title: 'Alpha', prompt: 'Find alpha.' },
                  { slotId: 'self', title: 'Beta', prompt: 'Find beta.', expectedOutput: 'One word.' }
                ]
              }),
        child: (handoff) => ({
          steps: [
            { type: 'reasoning', text: 'thinking hard' },
            { type: 'text', text: handoff.includes('Find alpha.') ? 'ALPHA-RESULT' : 'BETA-RESULT' }
          ]
        })
      })
    )
    const { sessionId } = await h.send('split the work')
    await h.idle(sessionId)

    const parent = h.presenters.sessions.require(sessionId)
    const children = h.presenters.sessions.children(sessionId)
    expect(children).toHaveLength(2)
    for (const child of children) {
      expect(child).toMatchObject({
        kind: 'subagent',
        parentSessionId: sessionId,
        workspaceDir: parent.workspaceDir,
        providerId: parent.providerId,
        modelId: parent.modelId,
        permissionMode: parent.permissionMode
      })
      expect(child.tapeId.startsWith(`${parent.tapeId}::fork::`)).toBe(true)
      const [start] = h.presenters.tape.entries(child.tapeId, { limit: 1 })
      expect(start).toMatchObject({ kind: 'anchor', name: FORK_START })
    }

    const merges = tapeEvents(h, sessionId, FORK_MERGE)
    expect(merges).toHaveLength(2)
    expect(merges.map((m) => m.payload.data.result).sort()).toEqual(['ALPHA-RESULT', 'BETA-RESULT'])
    expect(new Set(merges.map((m) => m.payload.data.forkTapeId))).toEqual(
      new Set(children.map((c) => c.tapeId))
    )
    // The merged result entries are copies with provenance back to the fork, and only the answer.
    const copies = tapeEvents(h, sessionId, 'subagent/result')
    expect(copies.map((c) => c.payload.data.result).sort()).toEqual(['ALPHA-RESULT', 'BETA-RESULT'])
    expect(copies.every((c) => children.some((ch) => ch.tapeId === c.meta.fork?.tapeId))).toBe(true)

    // The parent model read both results; the reasoning is not part of a result.
    const [result] = toolResults(parentBodies(h)[1])
    expect(result.content).toContain('ALPHA-RESULT')
    expect(result.content).toContain('BETA-RESULT')
    expect(result.content).not.toContain('thinking hard')
    const runs = h.presenters.subagents.listRuns(sessionId)
    expect(runs).toHaveLength(1)
    expect(runs[0]).toMatchObject({
      status: 'completed',
      mode: 'parallel',
      tasks: [
        { status: 'completed', tape: 'merged' },
        { status: 'completed', tape: 'merged' }
      ]
    })
    expect(
      childBodies(h)
        .find((b) => userTexts(b)[0].includes('Find beta.'))!
        .messages.at(-1)?.content
    ).toContain('One word.')
  })

  it('never offers subagent_orchestrator to a child (no recursion), while the parent has it', async () => {
    const h = await harness(
      splitScript({
        parent: (body) =>
          hasToolResult(body)
            ? textReply('ok')
            : run({ mode: 'parallel', tasks: [{ slotId: 'self', title: 'T', prompt: 'Do it.' }] }),
        child: () => textReply('child answer')
      })
    )
    const { sessionId } = await h.send('go')
    await h.idle(sessionId)
    expect(toolNames(parentBodies(h)[0])).toContain('subagent_orchestrator')
    const [child] = childBodies(h)
    expect(toolNames(child).length).toBeGreaterThan(0)
    expect(toolNames(child)).not.toContain('subagent_orchestrator')
    const childId = h.presenters.sessions.children(sessionId)[0].id
    expect(h.presenters.subagents.isAvailable(childId)).toBe(false)
    await expect(
      h.presenters.subagents.start(
        childId,
        { mode: 'parallel', tasks: [{ slotId: 'self', title: 'x', prompt: 'y' }] },
        { turns: h.presenters.agentRuntime }
      )
    ).rejects.toMatchObject({ code: 'subagents_unavailable' })
  })

  it("chain passes the first result into the second task's first message", async () => {
    const h = await harness(
      splitScript({
        parent: (body) =>
          hasToolResult(body)
            ? textReply('Chain done.')
            : run({
                mode: 'chain',
                tasks: [
                  { id: 'first', slotId: 'self', title: 'Collect', prompt: 'Collect the number.' },
                  {
                    id: 'second',
                    slotId: 'self',
                    title: 'Double',
                    prompt: 'Double the number you are given.'
                  }
                ]
              }),
        child: (handoff) =>
          textReply(handoff.includes('Collect the number.') ? 'The number is 21.' : 'Doubled: 42.')
      })
    )
    const { sessionId } = await h.send('chain it')
    await h.idle(sessionId)
    const bodies = childBodies(h)
    expect(bodies).toHaveLength(2)
    const [firstHandoff, secondHandoff] = bodies.map((b) => userTexts(b)[0])
    expect(firstHandoff).not.toContain('The number is 21.')
    expect(secondHandoff).toContain('Double the number you are given.')
    expect(secondHandoff).toContain('The number is 21.')
    const [view] = h.presenters.subagents.listRuns(sessionId)
    expect(view).toMatchObject({
      status: 'completed',
      tasks: [
        { taskId: 'first', result: 'The number is 21.' },
        { taskId: 'second', result: 'Doubled: 42.' }
      ]
    })
  })

  it('a failing child ends as an error: fork/discard on the parent, fork tape intact, later chain tasks skipped', async () => {
    const h = await harness(
      splitScript({
        parent: (body) =>
          hasToolResult(body)
            ? textReply('Noted the failure.')
            : run({
                mode: 'chain',
                tasks: [
                  { slotId: 'self', title: 'Breaks', prompt: 'This one fails.' },
                  { slotId: 'self', title: 'Never', prompt: 'Never runs.' }
                ]
              }),
        child: () => ({ status: 500, message: 'upstream exploded' })
      })
    )
    const { sessionId } = await h.send('try it')
    await h.idle(sessionId)
    const children = h.presenters.sessions.children(sessionId)
    expect(children).toHaveLength(1) // the second task never started
    expect(tapeEvents(h, sessionId, FORK_MERGE)).toHaveLength(0)
    const [discard] = tapeEvents(h, sessionId, FORK_DISCARD)
    expect(discard.payload.data).toMatchObject({
      forkTapeId: children[0].tapeId,
      status: 'error',
      taskId: 'task-1'
    })
    // The fork tape is kept as it was: the start anchor and the child's handoff message.
    const forkEntries = h.presenters.tape.entries(children[0].tapeId, { limit: 100 })
    expect(forkEntries[0].name).toBe(FORK_START)
    expect(forkEntries.some((e) => e.kind === 'message' && e.payload.role === 'user')).toBe(true)
    expect(h.presenters.tape.info(children[0].tapeId).fork).toMatchObject({ status: 'discarded' })

    const [view] = h.presenters.subagents.listRuns(sessionId)
    expect(view).toMatchObject({
      status: 'error',
      tasks: [
        { status: 'error', tape: 'discarded' },
        { status: 'cancelled', childSessionId: null }
      ]
    })
    const [result] = toolResults(parentBodies(h)[1])
    expect(result.content).toContain('upstream exploded')
  })

  it('rejects bad input with a clear error and starts nothing', async () => {
    const h = await harness(
      splitScript({
        parent: (body) =>
          hasToolResult(body)
            ? textReply('ok')
            : run({ mode: 'parallel', tasks: [{ slotId: 'nope', title: 'T', prompt: 'P' }] }),
        child: () => textReply('never')
      })
    )
    const { sessionId } = await h.send('go')
    await h.idle(sessionId)
    const [result] = toolResults(parentBodies(h)[1])
    expect(result.content).toContain('Subagent slot not found or not enabled: nope')
    expect(h.presenters.sessions.children(sessionId)).toHaveLength(0)
    const turns = h.presenters.agentRuntime
    await expect(
      h.presenters.subagents.start(sessionId, { mode: 'chain', tasks: [] }, { turns })
    ).rejects.toMatchObject({ code: 'invalid_input' })
    const six = Array.from({ length: 6 }, (_, i) => ({ slotId: 'self', title: `T${i}`, prompt: 'P' }))
    await expect(
      h.presenters.subagents.start(sessionId, { mode: 'parallel', tasks: six }, { turns })
    ).rejects.toMatchObject({ code: 'invalid_input' })
    expect(h.presenters.sessions.children(sessionId)).toHaveLength(0)
  })

  it('a run asked for outside a chat turn (no loop to run its children) is refused and starts nothing', async () => {
    const h = await harness([textReply('hello')])
    const { sessionId } = await h.send('hi')
    await h.idle(sessionId)
    const session = h.presenters.sessions.require(sessionId)
    const result = await h.presenters.tools.callTool(
      {
        id: 'outside',
        name: 'subagent_orchestrator',
        arguments: JSON.stringify({
          operation: 'run',
          mode: 'parallel',
          tasks: [{ slotId: 'self', title: 'T', prompt: 'P' }]
        })
      },
      { sessionId, workspaceDir: session.workspaceDir, permissionMode: session.permissionMode }
    )
    expect(result.rawData.toolResult.error).toMatchObject({
      code: 'unavailable',
      message: 'subagent_orchestrator starts runs only from a chat turn.'
    })
    expect(h.presenters.subagents.listRuns(sessionId)).toEqual([])
    expect(h.presenters.sessions.children(sessionId)).toHaveLength(0)
  })

  it('slots are per session: switching subagents off hides the tool; a child inherits the permission mode of its parent', async () => {
    const h = await harness(
      splitScript({
        parent: (body) =>
          lastIsToolResult(body)
            ? textReply('ok')
            : run({
                mode: 'parallel',
                tasks: [{ slotId: 'reviewer', title: 'Review', prompt: 'Review it.' }]
              }),
        child: () => textReply('Looks fine.')
      })
    )
    const { sessionId } = await h.send('first', { permissionMode: 'accept_edits' })
    await h.idle(sessionId)
    // Only `self` exists by default, so the `reviewer` slot is refused.
    expect(toolResults(parentBodies(h)[1])[0].content).toContain(
      'Subagent slot not found or not enabled: reviewer'
    )

    const config = {
      enabled: true,
      slots: [
        { id: 'reviewer', targetType: 'self' as const, displayName: 'Reviewer', description: 'Reviews code' }
      ]
    }
    const saved = await call(h, subagentsSetSlots, { sessionId, config })
    expect(saved.config.slots.map((s: { id: string }) => s.id)).toEqual(['reviewer'])
    await expect(
      callUnchecked(h, subagentsSetSlots, {
        sessionId,
        config: { enabled: true, slots: [{ id: 'bad id!', displayName: 'x' }] }
      })
    ).rejects.toMatchObject({ code: 'invalid_input' })
    await h.send('second', { sessionId })
    await h.idle(sessionId)
    const [child] = h.presenters.sessions.children(sessionId)
    expect(child).toMatchObject({
      permissionMode: 'accept_edits',
      title: 'Reviewer · Review',
      subagentMeta: { slotId: 'reviewer', displayName: 'Reviewer' }
    })
    expect(h.presenters.subagents.listRuns(sessionId)[0].tasks[0]).toMatchObject({
      result: 'Looks fine.',
      tape: 'merged'
    })

    await call(h, subagentsSetSlots, { sessionId, config: { ...config, enabled: false } })
    await h.send('third', { sessionId })
    await h.idle(sessionId)
    expect(toolNames(parentBodies(h).at(-1)!)).not.toContain('subagent_orchestrator')
  })
})
