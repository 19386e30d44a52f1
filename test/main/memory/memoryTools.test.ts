import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFeatureHarness, type FeatureHarness } from '../tools/featureHarness'
import { DEFAULT_AGENT_ID } from '../../../src/main/presenter/agentRuntimePresenter/featurePorts'

/** What memory_remember and memory_recall answer, as the assertions read it. */
interface Remembered {
  id: string
}
interface Recalled {
  memories: Array<{ id: string; content: string }>
}

let h: FeatureHarness
beforeEach(() => {
  h = createFeatureHarness()
})
afterEach(async () => {
  await h.close()
})

describe('memory tools', () => {
  it('remembers across sessions and recalls by words, best match first', async () => {
    const first = await h.call('memory_remember', {
      content: 'The user prefers tabs for indentation in Go files',
      category: 'user_preference'
    })
    expect(first.rawData.isError).toBe(false)
    const created = h.json<Remembered>(first)
    expect(created).toMatchObject({ ok: true, action: 'created' })
    await h.call('memory_remember', {
      content: 'Deploys run from the release branch every Friday',
      kind: 'episodic',
      importance: 0.4
    })

    const other = h.newSession()
    const recall = h.json<Recalled>(
      await h.call('memory_recall', { query: 'which indentation does the user like' }, other)
    )
    expect(recall.memories[0]).toMatchObject({
      id: created.id,
      kind: 'semantic',
      category: 'user_preference'
    })
    expect(recall.memories.map((m: { content: string }) => m.content)).not.toContain(
      'Deploys run from the release branch every Friday'
    )
    // Stemming: "deploy" finds "Deploys".
    const deploy = h.json<Recalled>(await h.call('memory_recall', { query: 'deploy' }, other))
    expect(deploy.memories).toHaveLength(1)
  })

  it('the same memory twice is a no-op; a higher importance re-rates it', async () => {
    const a = h.json<Remembered>(
      await h.call('memory_remember', { content: 'Use pnpm, not npm', importance: 0.5 })
    )
    const again = await h.call('memory_remember', { content: '  use PNPM,   not npm ' })
    expect(h.json(again)).toMatchObject({ ok: true, action: 'updated', id: a.id })
    const noop = h.json<Remembered>(
      await h.call('memory_remember', { content: 'Use pnpm, not npm', importance: 0.1 })
    )
    expect(noop).toMatchObject({ ok: false, action: 'noop', id: a.id })
    expect(h.presenters.memory.list(DEFAULT_AGENT_ID)).toHaveLength(1)
  })

  it('forget removes a memory from recall; an unknown id is a clear error', async () => {
    const { id } = h.json<Remembered>(
      await h.call('memory_remember', { content: 'The staging database is called ferret' })
    )
    const forgot = await h.call('memory_forget', { memoryId: id })
    expect(forgot.rawData.isError).toBe(false)
    expect(h.json<Recalled>(await h.call('memory_recall', { query: 'ferret' })).memories).toEqual([])
    const again = await h.call('memory_forget', { memoryId: id })
    expect(again.rawData.toolResult.error?.code).toBe('not_found')
  })

  it('rejects bad input clearly and stores nothing', async () => {
    expect((await h.call('memory_remember', { content: '   ' })).rawData.toolResult.error?.code).toBe(
      'invalid_arguments'
    )
    expect(
      (await h.call('memory_remember', { content: 'x', importance: 2 })).rawData.toolResult.error?.code
    ).toBe('invalid_arguments')
    expect(
      (await h.call('memory_remember', { content: 'x', category: 'gossip' })).rawData.toolResult.error?.code
    ).toBe('invalid_arguments')
    const punctuation = await h.call('memory_recall', { query: '?!' })
    expect(punctuation.rawData.isError).toBe(true)
    expect(h.text(punctuation)).toContain('at least one word')
    expect(h.presenters.memory.list(DEFAULT_AGENT_ID)).toEqual([])
  })

  it('switched off in settings: the tools leave the list and calls say so', async () => {
    expect(await h.toolNames()).toContain('memory_recall')
    h.presenters.memory.setEnabled(false)
    const names = await h.toolNames()
    expect(names.filter((n) => n.startsWith('memory_'))).toEqual([])
    const call = await h.call('memory_recall', { query: 'anything' })
    expect(call.rawData.isError).toBe(true)
    h.presenters.memory.setEnabled(true)
    h.presenters.memory.setEnabled(false, DEFAULT_AGENT_ID)
    expect((await h.toolNames()).filter((n) => n.startsWith('memory_'))).toEqual([])
    h.presenters.memory.setEnabled(true, DEFAULT_AGENT_ID)
    expect(await h.toolNames()).toContain('memory_remember')
  })

  it('the full-text index holds each remembered row', async () => {
    await h.call('memory_remember', { content: 'The office wifi is called heron-5g' })
    const { memory, sqlite } = h.presenters
    expect(memory.recall(DEFAULT_AGENT_ID, 'heron')).toHaveLength(1)
    const row = sqlite.db
      .prepare("SELECT count(*) AS n FROM agent_memories_fts WHERE agent_memories_fts MATCH 'heron'")
      .get() as { n: number }
    expect(row.n).toBe(1)
  })
})

describe('memory per agent', () => {
  it("keeps each agent's memories apart: recall, list and forget see only their own agent", async () => {
    const { memory } = h.presenters
    const mine = h.json<Remembered>(
      await h.call('memory_remember', { content: 'The build server is called osprey' })
    )
    const theirs = memory.remember('other-agent', { content: 'The build server is called condor' })
    expect(memory.recall(DEFAULT_AGENT_ID, 'build server').map((m) => m.content)).toEqual([
      'The build server is called osprey'
    ])
    expect(memory.recall('other-agent', 'build server').map((m) => m.content)).toEqual([
      'The build server is called condor'
    ])
    expect(h.json<Recalled>(await h.call('memory_recall', { query: 'condor' })).memories).toEqual([])
    // Another agent cannot forget this agent's memory, through the presenter or the tool.
    expect(memory.forget('other-agent', mine.id)).toBe(false)
    expect((await h.call('memory_forget', { memoryId: theirs.id })).rawData.toolResult.error?.code).toBe(
      'not_found'
    )
    expect(memory.list(DEFAULT_AGENT_ID)).toHaveLength(1)
    expect(memory.list('other-agent')).toHaveLength(1)
    // Switching one agent's memory off leaves the other's on.
    memory.setEnabled(false, 'other-agent')
    expect(await h.toolNames()).toContain('memory_recall')
  })
})

describe('memory tools in dispatch', () => {
  it('memory_recall and skill_list join read-only (parallel) batches; memory_remember and skill_view do not', async () => {
    const { isParallelSafe } = await import('../../../src/main/presenter/agentRuntimePresenter/dispatch')
    const definitions = await h.presenters.tools.getAllToolDefinitions(h.ctx())
    expect(isParallelSafe('memory_recall', definitions)).toBe(true)
    expect(isParallelSafe('memory_remember', definitions)).toBe(false)
    expect(isParallelSafe('skill_list', definitions)).toBe(true)
    expect(isParallelSafe('skill_view', definitions)).toBe(false)
  })
})
