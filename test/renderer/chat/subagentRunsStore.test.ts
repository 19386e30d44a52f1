import { afterEach, describe, expect, it } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { subagentsRunUpdated } from '@shared/contracts/events/subagents.events'
import type { SubagentRunView } from '@shared/types/subagents'
import { useSubagentsStore } from '@renderer/stores/subagents'
import { useRealBridge } from '../helpers/realBridge'

let bridge: ReturnType<typeof useRealBridge> | undefined
afterEach(async () => {
  await bridge?.dispose()
  bridge = undefined
})

function runView(
  parentSessionId: string,
  runId: string,
  updatedAt: number,
  title = 'Sum up'
): SubagentRunView {
  return {
    runId,
    parentSessionId,
    mode: 'parallel',
    background: false,
    status: 'running',
    error: null,
    createdAt: 1,
    updatedAt,
    tasks: [
      {
        index: 0,
        taskId: `${runId}-t0`,
        slotId: 'self',
        title,
        status: 'running',
        childSessionId: null,
        preview: '',
        result: null,
        error: null,
        tape: 'open',
        updatedAt
      }
    ]
  }
}

describe('the subagent runs a chat shows', () => {
  it('are read once, then kept live by run events for the chats on screen, the newer view winning', async () => {
    bridge = useRealBridge()
    const parent = bridge.presenters.sessions.create({ title: 'parent' }).id
    const other = bridge.presenters.sessions.create({ title: 'other' }).id
    setActivePinia(createPinia())
    const subagents = useSubagentsStore()
    await subagents.followRuns(parent)
    expect(subagents.runs[parent]).toEqual([])

    const emit = (run: SubagentRunView) =>
      bridge!.presenters.events.emit(subagentsRunUpdated, { parentSessionId: run.parentSessionId, run })
    emit(runView(parent, 'r1', 10))
    expect(subagents.runs[parent].map((r) => [r.runId, r.updatedAt])).toEqual([['r1', 10]])
    emit(runView(parent, 'r1', 20, 'Sum up again'))
    emit(runView(parent, 'r1', 15, 'stale'))
    expect(subagents.runs[parent].map((r) => [r.updatedAt, r.tasks[0].title])).toEqual([[20, 'Sum up again']])
    // A chat nobody shows keeps no runs in the window.
    emit(runView(other, 'r2', 10))
    expect(subagents.runs[other]).toBeUndefined()

    subagents.dispose()
    emit(runView(parent, 'r3', 30))
    expect(subagents.runs[parent].map((r) => r.runId)).toEqual(['r1'])
  })
})
