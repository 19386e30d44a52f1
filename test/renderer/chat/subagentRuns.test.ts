import { describe, expect, it } from 'vitest'
import type { SubagentRunView } from '@shared/types/subagents'
import { orchestratorCall, runForCall } from '@renderer/components/chat/blocks/subagentRuns'

function run(runId: string, createdAt: number, titles: string[]): SubagentRunView {
  return {
    runId,
    parentSessionId: 'p',
    mode: 'parallel',
    background: false,
    status: 'running',
    error: null,
    createdAt,
    updatedAt: createdAt,
    tasks: titles.map((title, index) => ({
      index,
      taskId: `task-${index + 1}`,
      slotId: 'self',
      title,
      status: 'running',
      childSessionId: null,
      preview: '',
      result: null,
      error: null,
      tape: 'open',
      updatedAt: createdAt
    }))
  }
}

const args = (titles: string[]) => ({
  operation: 'run',
  mode: 'parallel',
  tasks: titles.map((title) => ({ slotId: 'self', title, prompt: 'x' }))
})

describe('which subagent run a call shows', () => {
  const runs = [run('later', 300, ['A', 'B']), run('first', 100, ['A', 'B']), run('other', 150, ['C'])]

  it('gives two identical calls their own runs: each the first same-task run started after it', () => {
    expect(runForCall(orchestratorCall(args(['A', 'B']), 50), runs)?.runId).toBe('first')
    expect(runForCall(orchestratorCall(args(['A', 'B']), 200), runs)?.runId).toBe('later')
  })

  it('needs the same titles in the same order, and a run that started after the call', () => {
    expect(runForCall(orchestratorCall(args(['B', 'A']), 50), runs)).toBeNull()
    expect(runForCall(orchestratorCall(args(['A']), 50), runs)).toBeNull()
    expect(runForCall(orchestratorCall(args(['A', 'B']), 400), runs)).toBeNull()
  })

  it('finds the run a wait/log call names, and nothing for a list call or half-streamed arguments', () => {
    expect(runForCall(orchestratorCall({ operation: 'wait', runId: 'other' }, 999), runs)?.runId).toBe(
      'other'
    )
    expect(runForCall(orchestratorCall({ operation: 'list' }, 0), runs)).toBeNull()
    expect(runForCall(orchestratorCall(null, 0), runs)).toBeNull()
  })
})
