import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createRouter } from '../../../src/main/routes'
import { createFeatureHarness, type FeatureHarness } from '../tools/featureHarness'

let h: FeatureHarness
beforeEach(() => {
  h = createFeatureHarness()
})
afterEach(async () => {
  await h.close()
})

/** A route call as the Memory page makes it. */
async function route(name: string, input: unknown) {
  const result = await createRouter(h.presenters).invoke(name, input, { transport: 'test', clientId: 'page' })
  if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code })
  return result.data as any // eslint-disable-line @typescript-eslint/no-explicit-any -- shapes are checked
}

describe('editing memories from the Memory page', () => {
  it('an edit reaches memory_recall: the new words find it, the old ones no longer do', async () => {
    const saved = h.json(await h.call('memory_remember', { content: 'The user drinks tea every morning' }))
    const { memory } = await route('memory.update', {
      memoryId: saved.id,
      content: 'The user drinks coffee every morning'
    })
    expect(memory).toMatchObject({ id: saved.id, content: 'The user drinks coffee every morning' })

    const coffee = h.json(await h.call('memory_recall', { query: 'coffee' }))
    expect(coffee.memories.map((m: { id: string }) => m.id)).toEqual([saved.id])
    const tea = h.json(await h.call('memory_recall', { query: 'tea' }))
    expect(tea.memories).toEqual([])
    // The page's search finds it the same way.
    expect((await route('memory.search', { query: 'coffee' })).memories[0].id).toBe(saved.id)
  })

  it('refuses an empty text, a duplicate of another memory and an unknown id', async () => {
    const a = h.json(await h.call('memory_remember', { content: 'Use pnpm' }))
    h.json(await h.call('memory_remember', { content: 'Deploy on Fridays' }))
    await expect(route('memory.update', { memoryId: a.id, content: '   ' })).rejects.toMatchObject({
      code: 'invalid_input'
    })
    await expect(
      route('memory.update', { memoryId: a.id, content: 'deploy on  FRIDAYS' })
    ).rejects.toMatchObject({
      code: 'conflict'
    })
    await expect(route('memory.update', { memoryId: 'nope', content: 'x' })).rejects.toMatchObject({
      code: 'not_found'
    })
    expect(h.json(await h.call('memory_recall', { query: 'pnpm' })).memories[0].content).toBe('Use pnpm')
  })
})
