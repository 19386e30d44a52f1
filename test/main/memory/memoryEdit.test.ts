import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { memorySearch, memoryUpdate } from '@shared/contracts/routes/agentFeatures.routes'
import type { RouteDef, RouteInput, RouteOutput } from '@shared/contracts/define'
import { createRouter } from '../../../src/main/routes'
import { createFeatureHarness, type FeatureHarness } from '../tools/featureHarness'

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

/** A route call as the Memory page makes it. */
function call<R extends RouteDef>(def: R, input: RouteInput<R>): Promise<RouteOutput<R>> {
  return createRouter(h.presenters).call(def, input, { transport: 'test', clientId: 'page' })
}

describe('editing memories from the Memory page', () => {
  it('an edit reaches memory_recall: the new words find it, the old ones no longer do', async () => {
    const saved = h.json<Remembered>(
      await h.call('memory_remember', { content: 'The user drinks tea every morning' })
    )
    const { memory } = await call(memoryUpdate, {
      memoryId: saved.id,
      content: 'The user drinks coffee every morning'
    })
    expect(memory).toMatchObject({ id: saved.id, content: 'The user drinks coffee every morning' })

    const coffee = h.json<Recalled>(await h.call('memory_recall', { query: 'coffee' }))
    expect(coffee.memories.map((m: { id: string }) => m.id)).toEqual([saved.id])
    const tea = h.json<Recalled>(await h.call('memory_recall', { query: 'tea' }))
    expect(tea.memories).toEqual([])
    // The page's search finds it the same way.
    expect((await call(memorySearch, { query: 'coffee' })).memories[0].id).toBe(saved.id)
  })

  it('refuses an empty text, a duplicate of another memory and an unknown id', async () => {
    const a = h.json<Remembered>(await h.call('memory_remember', { content: 'Use pnpm' }))
    h.json<Remembered>(await h.call('memory_remember', { content: 'Deploy on Fridays' }))
    await expect(call(memoryUpdate, { memoryId: a.id, content: '   ' })).rejects.toMatchObject({
      code: 'invalid_input'
    })
    await expect(call(memoryUpdate, { memoryId: a.id, content: 'deploy on  FRIDAYS' })).rejects.toMatchObject(
      {
        code: 'conflict'
      }
    )
    await expect(call(memoryUpdate, { memoryId: 'nope', content: 'x' })).rejects.toMatchObject({
      code: 'not_found'
    })
    expect(h.json<Recalled>(await h.call('memory_recall', { query: 'pnpm' })).memories[0].content).toBe(
      'Use pnpm'
    )
  })
})
