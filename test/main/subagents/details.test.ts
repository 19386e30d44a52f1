import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { existsSync } from 'node:fs'
import { FORK_DISCARD } from '@shared/types/tape'
import type { MessageBlock } from '@shared/types/session'
import { finalAnswer, previewOf } from '../../../src/main/presenter/subagentPresenter/handoff'
import { aggregate } from '../../../src/main/presenter/subagentPresenter'
import {
  callsReply,
  eventsOf,
  call,
  tempDir,
  textReply,
  toolCall,
  toolResults,
  useLoopHarness
} from '../loop/helpers'
import { hasToolResult, parentBodies, splitScript, tapeEvents } from './helpers'
import { until } from '../../helpers/until'
import { subagentsInteractionChanged } from '@shared/contracts/events/subagents.events'
import {
  subagentsKillRun,
  subagentsPendingInteractions,
  subagentsRespond
} from '@shared/contracts/routes/subagents.routes'

const harness = useLoopHarness()
const run = (args: Record<string, unknown>) => callsReply(toolCall('s1', 'subagent_orchestrator', args))
const oneTask = { mode: 'parallel', tasks: [{ slotId: 'self', title: 'Asker', prompt: 'Ask, then answer.' }] }

function block(kind: 'content' | 'reasoning_content', text: string): MessageBlock {
  return { id: `${kind}-${text}`, kind, status: 'success', text, createdAt: 1, updatedAt: 1 }
}

describe('subagent results and status', () => {
  it('takes the text after the last tool call as the result, never reasoning or narration', () => {
    const blocks = [
      block('reasoning_content', 'secret thoughts'),
      block('content', 'Let me look around.'),
      {
        id: 'tool_call-c',
        kind: 'tool_call',
        status: 'success',
        text: '',
        toolCall: { id: 'c', name: 'read', params: '{}', response: 'FILE BODY' },
        createdAt: 1,
        updatedAt: 1
      },
      block('content', 'The answer is 7.'),
      block('content', 'Details follow.')
    ] as MessageBlock[]
    expect(finalAnswer(blocks)).toBe('The answer is 7.\n\nDetails follow.')
    expect(finalAnswer([block('content', 'Only text.')])).toBe('Only text.')
    expect(finalAnswer([block('reasoning_content', 'thinking')])).toBe('')
    expect(previewOf([block('content', 'a\nb\n\nc\nd')])).toBe('b\nc\nd')
  })

  it('derives the run status: waiting wins while unfinished; at the end how the tasks ended', () => {
    expect(aggregate(['completed', 'waiting_question', 'running'], null)).toBe('waiting_question')
    expect(aggregate(['running', 'waiting_permission'], null)).toBe('waiting_permission')
    expect(aggregate(['completed', 'completed'], null)).toBe('completed')
    expect(aggregate(['completed', 'error'], null)).toBe('error')
    expect(aggregate(['completed', 'cancelled'], 'timeout')).toBe('timeout')
    expect(aggregate(['completed', 'completed'], 'cancelled')).toBe('completed')
  })
})

describe('subagent questions and stopping a waiting child', () => {
  it('a child question is labelled in the parent, answered from there, and its answer reaches the child', async () => {
    const h = await harness(
      splitScript({
        parent: (body) => (hasToolResult(body) ? textReply('Thanks.') : run(oneTask)),
        child: (_handoff, body) =>
          hasToolResult(body)
            ? textReply(
                `You picked: ${toolResults(body)[0].content.includes('Green') ? 'Green' : 'something else'}`
              )
            : callsReply(
                toolCall('q1', 'deepchat_question', {
                  question: 'Which colour?',
                  options: [{ label: 'Green' }, { label: 'Red' }]
                })
              )
      })
    )
    const { sessionId } = await h.send('ask via a subagent')
    await until(() => h.presenters.subagents.listRuns(sessionId)[0]?.status === 'waiting_question', {
      timeoutMs: 10_000
    })
    const [asked] = eventsOf(h, subagentsInteractionChanged)
    expect(asked).toMatchObject({ label: 'Self · Asker', interactions: [{ kind: 'question' }] })
    await call(h, subagentsRespond, {
      parentSessionId: sessionId,
      childSessionId: asked.childSessionId,
      messageId: asked.interactions[0].messageId,
      interactionId: asked.interactions[0].id,
      response: { kind: 'question', selected: ['Green'] }
    })
    await h.idle(sessionId)
    expect(h.presenters.subagents.listRuns(sessionId)[0].tasks[0]).toMatchObject({
      status: 'completed',
      result: 'You picked: Green'
    })
    expect(toolResults(parentBodies(h)[1])[0].content).toContain('You picked: Green')
  })

  it('killing a run whose child waits for permission denies the request, cancels the task and discards the fork', async () => {
    const target = join(tempDir(), 'never.txt')
    const h = await harness(
      splitScript({
        parent: (body) => (hasToolResult(body) ? textReply('ok') : run({ ...oneTask, background: true })),
        child: () => callsReply(toolCall('w1', 'write', { path: target, content: 'x' }))
      })
    )
    const { sessionId } = await h.send('bg write')
    await h.idle(sessionId)
    await until(() => h.presenters.subagents.listRuns(sessionId)[0]?.status === 'waiting_permission', {
      timeoutMs: 10_000
    })
    const [started] = h.presenters.subagents.listRuns(sessionId)
    const childId = started.tasks[0].childSessionId!
    await call(h, subagentsKillRun, { runId: started.runId })
    expect(h.presenters.subagents.getRun(started.runId)).toMatchObject({
      status: 'cancelled',
      tasks: [{ status: 'cancelled', tape: 'discarded' }]
    })
    expect(h.presenters.sessions.interactions.list({ sessionId: childId, status: 'pending' })).toEqual([])
    expect(h.presenters.sessions.require(childId).status).toBe('idle')
    expect(tapeEvents(h, sessionId, FORK_DISCARD)).toHaveLength(1)
    expect(existsSync(target)).toBe(false)
    expect((await call(h, subagentsPendingInteractions, { parentSessionId: sessionId })).pending).toEqual([])
  })
})
