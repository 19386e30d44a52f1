import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFeatureHarness, type FeatureHarness } from './featureHarness'

let h: FeatureHarness
beforeEach(() => {
  h = createFeatureHarness()
})
afterEach(async () => {
  await h.close()
})

const entryIds = (hits: Array<{ entryId: number }>) => hits.map((x) => x.entryId)

describe('tape tools and deleted messages', () => {
  it('tape_search and tape_context do not find a message the user deleted, and find it again after Undo', async () => {
    const { messages, branches } = h.presenters.sessions
    const kept = messages.appendUserMessage(h.sessionId, { text: 'the walrus plan stays' })
    const gone = messages.appendUserMessage(h.sessionId, { text: 'the walrus secret is HERON-3' })
    const ids = branches.remove(h.sessionId, gone.id)
    expect(ids).toEqual([gone.id])

    const hits = h.json<Array<{ entryId: number }>>(await h.call('tape_search', { query: 'walrus' }))
    expect(entryIds(hits)).toEqual([kept.tapeEntryId])
    // Asked for directly, it is not there; as a neighbour of a kept entry, it is left out.
    const direct = await h.call('tape_context', { entryIds: [gone.tapeEntryId!] })
    expect(JSON.stringify(direct)).toContain('No tape entries with ids')
    expect(JSON.stringify(direct)).not.toContain('HERON-3')
    const around = h.json<{ matchedEntryIds: number[] }>(
      await h.call('tape_context', { entryIds: [kept.tapeEntryId!], after: 3 })
    )
    expect(around.matchedEntryIds).toEqual([kept.tapeEntryId])
    expect(JSON.stringify(around)).not.toContain('HERON-3')

    branches.restore(h.sessionId, ids)
    const again = h.json<Array<{ entryId: number }>>(await h.call('tape_search', { query: 'HERON' }))
    expect(entryIds(again)).toEqual([gone.tapeEntryId])
  })
})
