import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { knowledgeCreate, knowledgeSearch } from '@shared/contracts/routes/knowledge.routes'
import type { KnowledgeSearchMode } from '@shared/types/knowledge'
import { createKnowledgeHarness, type KnowledgeHarness } from './harness'

/**
 * A small labelled set: 20 documents, 10 questions, one right document each. Some questions use
 * other words than their document (where embeddings help), some name an exact code among
 * look-alike documents (where full-text search helps), some both.
 */
const DOCS: Record<string, string> = {
  'engine.md':
    'How to repair an automobile engine that refuses to turn over on freezing winter mornings: check the battery terminals, then the starter motor, then the glow plugs.',
  'fever.md':
    'Our physician recommends plenty of rest and fluids when a youngster is unwell with a high temperature; call again if it lasts three days.',
  'mortgage.md':
    'To acquire a residence within the municipality you need a mortgage pre-approval, a deposit of ten percent and a notary appointment.',
  'harbour.md':
    'The enormous vessel left the harbour at dawn and crossed the marine reserve without stopping at the lighthouse.',
  'payroll.md':
    'Staff compensation is transferred on the last working day of each month; overtime appears on the following statement.',
  'returns.md':
    'A reimbursement of the receipt amount is issued within ten days after the product is returned to the warehouse.',
  'membership.md':
    'To terminate a membership, open the account page, choose close membership and confirm with the code we email.',
  'pets.md': 'The kitten and the puppy share one basket by the stove; both are fed twice daily.',
  'err-4471.md':
    'Billing service reference entry. Code ERR-4471 appears when the upstream ledger rejects a currency conversion because the exchange table is stale; rebuild the table overnight, replay the queued batch and notify the treasury desk before noon.',
  'err-5520.md':
    'Billing service reference entry. Code ERR-5520 appears when a tax region is missing from the merchant profile; the onboarding team adds the region, regenerates the statement, tells the merchant by letter and closes the ticket.',
  'err-6013.md':
    'Billing service reference entry. Code ERR-6013 appears when a card issuer times out during settlement; the nightly job retries twice, then parks the record for manual review by the operations group on duty.',
  'err-7150.md': 'Billing service reference entry. Code ERR-7150: duplicate request, ignored.',
  'err-8302.md': 'Billing service reference entry. Code ERR-8302: quota reached, retry tomorrow.',
  'status.md': 'The billing service status page lists outages and planned maintenance windows.',
  'compost.md': 'The garden compost heap is turned every Sunday and covered before rain.',
  'album.md': 'Photographs from the summer trip are stored in the shared family album.',
  'fox.md': 'The quick brown fox jumps over the lazy dog near the river bank.',
  'storms.md': 'Flights to the island are called off when storms are forecast for the strait.',
  'library.md': 'The library opens at nine and lends novels for three weeks at a time.',
  'frontdesk.md': 'Cash at the front desk needs a printed bill signed by the duty manager.'
}

const QUERIES: { query: string; answer: string }[] = [
  { query: 'fix a car that will not start when it is cold', answer: 'engine.md' },
  { query: 'doctor advice for a sick kid', answer: 'fever.md' },
  { query: 'buy a house in town', answer: 'mortgage.md' },
  { query: 'huge ship crossing the sea', answer: 'harbour.md' },
  { query: 'when do employees get their salary', answer: 'payroll.md' },
  { query: 'what does ERR-5520 mean', answer: 'err-5520.md' },
  { query: 'what does ERR-4471 mean', answer: 'err-4471.md' },
  { query: 'what does ERR-6013 mean', answer: 'err-6013.md' },
  { query: 'refund after the product is returned', answer: 'returns.md' },
  { query: 'cancel my membership', answer: 'membership.md' }
]

const TOP_K = 3

let k: KnowledgeHarness
let baseId: string

beforeAll(async () => {
  k = await createKnowledgeHarness()
  for (const [name, text] of Object.entries(DOCS)) writeFileSync(join(k.docs, name), text)
  const { base } = await k.router.call(knowledgeCreate, {
    name: 'Labelled set',
    sources: [k.pickFolder(k.docs)],
    embedding: { providerId: k.providerId, modelId: 'fake-embed' }
  })
  baseId = base.id
  await k.h.presenters.knowledge.whenIdle()
})
afterAll(async () => {
  await k?.close()
})

async function hitRate(mode: KnowledgeSearchMode): Promise<{ rate: number; misses: string[] }> {
  const misses: string[] = []
  for (const { query, answer } of QUERIES) {
    const { hits } = await k.router.call(knowledgeSearch, { baseIds: [baseId], query, topK: TOP_K, mode })
    if (!hits.some((h) => h.path === join(k.docs, answer))) misses.push(query)
  }
  return { rate: (QUERIES.length - misses.length) / QUERIES.length, misses }
}

describe('hybrid search on a labelled set', () => {
  it(`finds more right documents in its top ${TOP_K} than vector search or full-text search alone`, async () => {
    expect((await k.base(baseId)).fileCount).toBe(20)
    const vector = await hitRate('vector')
    const fulltext = await hitRate('fulltext')
    const hybrid = await hitRate('hybrid')
    // Printed so a change in ranking shows its figures, not only pass/fail.
    console.log(
      `hit@${TOP_K}: hybrid ${hybrid.rate}, vector ${vector.rate} (missed: ${vector.misses.join('; ')}), full text ${fulltext.rate} (missed: ${fulltext.misses.join('; ')}); hybrid missed: ${hybrid.misses.join('; ') || 'none'}`
    )
    expect(hybrid.rate).toBeGreaterThan(vector.rate)
    expect(hybrid.rate).toBeGreaterThan(fulltext.rate)
    expect(hybrid.rate).toBeGreaterThanOrEqual(0.9)
  })

  it('ranks by fused score, best first, each hit with its file, location and a snippet', async () => {
    const { hits } = await k.router.call(knowledgeSearch, {
      baseIds: [baseId],
      query: 'billing service error ERR-6013',
      topK: 5
    })
    expect(hits).toHaveLength(5)
    for (let i = 1; i < hits.length; i++) expect(hits[i].score).toBeLessThanOrEqual(hits[i - 1].score)
    const best = hits.find((h) => h.path.endsWith('err-6013.md'))!
    expect(best.location).toEqual({ kind: 'lines', startLine: 1, endLine: 1 })
    expect(best.snippet.length).toBeLessThanOrEqual(242)
    expect(best.snippet).toContain('6013')
  })

  it('treats the query as words: FTS5 syntax in it is searched for, never run', async () => {
    for (const query of ['"unbalanced', 'NEAR(billing error', 'billing* OR -', 'text:billing', '^ ( ) { } :'])
      await expect(
        k.router.call(knowledgeSearch, { baseIds: [baseId], query, topK: 3 })
      ).resolves.toBeDefined()
  })
})
