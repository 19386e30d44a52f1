import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { EventPayload } from '@shared/contracts/define'
import { knowledgeBaseChanged } from '@shared/contracts/events/knowledge.events'
import { knowledgeCancel, knowledgeCreate, knowledgeReindex } from '@shared/contracts/routes/knowledge.routes'
import type { Presenters } from '../../../src/main/presenter'
import { openKnowledge } from './fixtures/standalone'
import { startFakeEmbeddings, type FakeEmbeddingServer } from '../../fixtures/llm/fakeEmbeddings'
import { until } from '../../helpers/until'
import { createKnowledgeHarness, EMBEDDING_KEY, type KnowledgeHarness } from './harness'

const repoRoot = resolve(import.meta.dirname, '../../..')
const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** `files` Markdown files of `linesEach` distinct lines: about one chunk per 20 lines. */
function writeNotes(dir: string, files: number, linesEach = 60): void {
  mkdirSync(dir, { recursive: true })
  for (let f = 0; f < files; f++) {
    const lines = Array.from(
      { length: linesEach },
      (_, i) =>
        `Note ${f}-${i}: the ${['harbour', 'orchard', 'bakery', 'ferry'][i % 4]} log entry number ${i} of file ${f}.`
    )
    writeFileSync(join(dir, `note-${String(f).padStart(3, '0')}.md`), lines.join('\n'))
  }
}

async function harness(
  options: Parameters<typeof createKnowledgeHarness>[0] = {}
): Promise<KnowledgeHarness> {
  const k = await createKnowledgeHarness(options)
  cleanups.push(() => k.close())
  return k
}

function indexedEvents(presenters: Presenters): string[] {
  const seen: string[] = []
  presenters.events.subscribe((name, payload) => {
    if (name === knowledgeBaseChanged.name) {
      const p = payload as EventPayload<typeof knowledgeBaseChanged>
      if (p.reason === 'indexed') seen.push(p.baseId)
    }
  })
  return seen
}

describe('the indexing queue', () => {
  it('a host killed mid-run resumes at the next start: nothing embedded twice, nothing missing', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'kb-crash-')))
    cleanups.push(() => rmSync(root, { recursive: true, force: true }))
    const dataDir = join(root, 'data')
    const docs = join(root, 'docs')
    writeNotes(docs, 40)
    const fake: FakeEmbeddingServer = await startFakeEmbeddings({ apiKey: EMBEDDING_KEY, delayMs: 150 })
    cleanups.push(() => fake.close())
    const host = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, 'fixtures', 'host.ts'),
        JSON.stringify({ dataDir, docs, baseUrl: fake.baseUrl, apiKey: EMBEDDING_KEY })
      ],
      {
        cwd: repoRoot,
        env: { ...process.env, TSX_TSCONFIG_PATH: join(repoRoot, 'tsconfig.node.json') },
        stdio: ['ignore', 'pipe', 'pipe']
      }
    )
    cleanups.push(() => void host.kill('SIGKILL'))
    let stderr = ''
    host.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const { baseId } = await new Promise<{ baseId: string }>((resolveLine, reject) => {
      let out = ''
      host.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        if (out.includes('\n')) resolveLine(JSON.parse(out.split('\n')[0]))
      })
      host.on('exit', (code) => reject(new Error(`host exited with ${code}: ${stderr}`)))
    })
    // Two batches answered, the third on its way: kill it there.
    await fake.requestsSeen(3)
    host.kill('SIGKILL')
    await new Promise((done) => host.once('exit', done))
    const embeddedBefore = fake.embeddedCount()
    expect(embeddedBefore).toBeGreaterThanOrEqual(128)

    const reopened = openKnowledge(dataDir, { baseUrl: fake.baseUrl, apiKey: EMBEDDING_KEY })
    cleanups.push(() => reopened.close())
    // What the app does on open: every base catches up.
    reopened.knowledge.start()
    await reopened.knowledge.whenIdle()
    const base = reopened.knowledge.get(baseId)
    const db = reopened.sqlite.db
    const chunks = (db.prepare('SELECT COUNT(*) AS n FROM knowledge_chunks').get() as { n: number }).n
    expect(base.chunkCount).toBe(chunks)
    expect(db.prepare('SELECT COUNT(*) AS n FROM knowledge_vec_256').get()).toEqual({ n: chunks })
    expect(db.prepare('SELECT COUNT(*) AS n FROM knowledge_chunks WHERE embedded = 0').get()).toEqual({
      n: 0
    })
    // What was stored before the kill was not embedded again (at most the batch cut off).
    expect(fake.embeddedCount() - embeddedBefore).toBeLessThanOrEqual(chunks - embeddedBefore + 64)
    expect(fake.embeddedCount() - embeddedBefore).toBeLessThan(chunks)
  }, 60_000)

  it('cancel stops the run, keeps what it finished, and a re-index completes from there', async () => {
    const k = await harness({ fake: { delayMs: 100 } })
    writeNotes(k.docs, 30)
    const { base } = await k.router.call(knowledgeCreate, {
      name: 'Notes',
      sources: [k.pickFolder(k.docs)],
      embedding: { providerId: k.providerId, modelId: 'm' }
    })
    await k.fake.requestsSeen(2)
    await k.router.call(knowledgeCancel, { baseId: base.id })
    await k.h.presenters.knowledge.whenIdle()
    const cancelled = await k.base(base.id)
    expect(cancelled.status).toBe('cancelled')
    const before = k.fake.embeddedCount()
    await k.router.call(knowledgeReindex, { baseId: base.id })
    await k.h.presenters.knowledge.whenIdle()
    const done = await k.base(base.id)
    expect(done).toMatchObject({ status: 'idle', fileCount: 30 })
    expect(k.fake.embeddedCount() - before).toBeLessThan(done.chunkCount)
    expect(k.progress.filter((p) => p.baseId === base.id).map((p) => p.phase)).toContain('cancelled')
  })

  it('a file whose texts the provider refuses fails alone; the others are indexed', async () => {
    const k = await harness({
      fake: {
        faults: (r) =>
          r.texts.some((t) => t.includes('POISON')) ? { status: 400, message: 'bad input' } : undefined
      }
    })
    writeNotes(k.docs, 2, 10)
    writeFileSync(join(k.docs, 'poison.md'), 'POISON text the provider refuses.')
    // One batch holds all three files' chunks: the refused text is found by halving it.
    const { base } = await k.router.call(knowledgeCreate, {
      name: 'Mixed',
      sources: [k.pickFolder(k.docs)],
      embedding: { providerId: k.providerId, modelId: 'm' }
    })
    await k.h.presenters.knowledge.whenIdle()
    const view = await k.base(base.id)
    expect(view.status).toBe('idle')
    expect(view.errors).toEqual([
      expect.objectContaining({
        path: join(k.docs, 'poison.md'),
        code: 'embedding_failed',
        message: expect.stringContaining('bad input')
      })
    ])
    expect(view.fileCount).toBe(2)
  })

  it('watches a folder: a saved, added or deleted file is re-indexed without asking', async () => {
    const k = await harness()
    writeNotes(k.docs, 2, 5)
    const indexed = indexedEvents(k.h.presenters)
    const { base } = await k.router.call(knowledgeCreate, {
      name: 'Watched',
      sources: [k.pickFolder(k.docs)],
      embedding: { providerId: k.providerId, modelId: 'm' }
    })
    await k.h.presenters.knowledge.whenIdle()
    const runs = indexed.length
    writeFileSync(join(k.docs, 'new.md'), 'The watcher saw the marmalade recipe.')
    await until(async () => (await k.base(base.id)).fileCount === 3 && indexed.length > runs, {
      what: 'the new file is indexed',
      timeoutMs: 15_000
    })
    rmSync(join(k.docs, 'note-000.md'))
    await until(async () => (await k.base(base.id)).fileCount === 2, {
      what: 'the deleted file is dropped',
      timeoutMs: 15_000
    })
    expect((await k.base(base.id)).status).toBe('idle')
  })
})
