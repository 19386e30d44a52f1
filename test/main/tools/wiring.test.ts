import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { toolsPlanUpdated, toolsProcessChanged } from '@shared/contracts/events/tools.events'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'

let dir: string
let presenters: Presenters
let events: { name: string; payload: unknown }[]

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tools-wiring-'))
  mkdirSync(join(dir, 'ws'))
  presenters = createPresenters(createNodePlatform({ dataDir: join(dir, 'data'), log: () => {} }), {
    log: () => {}
  })
  events = []
  presenters.events.subscribe((name, payload) => events.push({ name, payload }))
})
afterEach(async () => {
  await presenters.dispose()
  rmSync(dir, { recursive: true, force: true })
})

describe('ToolPresenter in the composition root', () => {
  const ctx = () => ({ sessionId: 's1', workspaceDir: join(dir, 'ws'), permissionMode: 'default' })

  it('emits tools.plan.updated for update_plan', async () => {
    const plan = [{ step: 'write tests', status: 'in_progress' }]
    await presenters.tools.callTool(
      { id: 'p1', name: 'update_plan', arguments: JSON.stringify({ plan }) },
      ctx()
    )
    expect(events.filter((e) => e.name === toolsPlanUpdated.name)).toEqual([
      {
        name: 'tools.plan.updated',
        payload: expect.objectContaining({ sessionId: 's1', toolCallId: 'p1', revision: 1, plan })
      }
    ])
  })

  it('emits tools.process.changed as a command starts and ends, and keeps spilled output under the user-data folder', async () => {
    const result = await presenters.tools.callTool(
      { id: 'e1', name: 'exec', arguments: JSON.stringify({ command: 'seq 1 5000' }) },
      ctx()
    )
    const statuses = events
      .filter((e) => e.name === toolsProcessChanged.name)
      .map((e) => (e.payload as { status: string }).status)
    expect(statuses).toEqual(['running', 'done'])
    expect(
      (result.rawData.toolResult.data as { logFile: string }).logFile.startsWith(
        join(dir, 'data', 'sessions', 's1')
      )
    ).toBe(true)
  })
})
