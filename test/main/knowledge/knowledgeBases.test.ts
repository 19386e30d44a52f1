import { mkdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  knowledgeChangeEmbedding,
  knowledgeChooseFiles,
  knowledgeCreate,
  knowledgeReadSource,
  knowledgeReindex,
  knowledgeRemove,
  knowledgeRemoveSource,
  knowledgeSearch
} from '@shared/contracts/routes/knowledge.routes'
import { KNOWLEDGE_FACTS, writeKnowledgeFolder } from '../../fixtures/knowledge'
import { makePdf, makeXlsx } from '../../fixtures/documents'
import { createKnowledgeHarness, type KnowledgeHarness } from './harness'
import { scanFolder } from '../../../src/main/presenter/knowledgePresenter/fileScan'

const harnesses: KnowledgeHarness[] = []
afterEach(async () => {
  for (const k of harnesses.splice(0)) await k.close()
})

async function setup(options: Parameters<typeof createKnowledgeHarness>[0] = {}) {
  const k = await createKnowledgeHarness(options)
  harnesses.push(k)
  return k
}

async function createBase(k: KnowledgeHarness, sources: string[], name = 'Docs') {
  const { base } = await k.router.call(knowledgeCreate, {
    name,
    sources,
    embedding: { providerId: k.providerId, modelId: 'text-embedding-3-small' }
  })
  await k.h.presenters.knowledge.whenIdle()
  return k.base(base.id)
}

describe('knowledge bases: indexing a folder of real documents', () => {
  it('indexes PDF, DOCX and Markdown and finds each fact at its file and page or lines', async () => {
    const k = await setup()
    await writeKnowledgeFolder(k.docs)
    const base = await createBase(k, [k.pickFolder(k.docs)])
    expect(base).toMatchObject({
      status: 'idle',
      fileCount: 3,
      errorCount: 0,
      embedding: { providerId: k.providerId, modelId: 'text-embedding-3-small', dimensions: 256 }
    })
    expect(base.chunkCount).toBeGreaterThanOrEqual(5)
    expect(base.bytes).toBeGreaterThan(0)
    expect(base.lastIndexedAt).toEqual(expect.any(Number))
    // The key went to the provider, as a bearer token.
    expect(k.fake.requests[0].headers.authorization).toBe('Bearer sk-embed-0123456789')

    const pdf = await k.router.call(knowledgeSearch, {
      baseIds: [base.id],
      query: 'When is the lighthouse lamp serviced?',
      topK: 3
    })
    expect(pdf.hits[0]).toMatchObject({
      path: join(k.docs, KNOWLEDGE_FACTS.pdf.file),
      location: { kind: 'page', page: 2 }
    })
    expect(pdf.hits[0].text).toContain('thirteenth of March')

    const docx = await k.router.call(knowledgeSearch, {
      baseIds: [base.id],
      query: 'Where do volunteers get brass keys?',
      topK: 3
    })
    expect(docx.hits[0].path).toBe(join(k.docs, KNOWLEDGE_FACTS.docx.file))
    expect(docx.hits[0].location.kind).toBe('lines')

    const md = await k.router.call(knowledgeSearch, {
      baseIds: [base.id],
      query: 'tomato seedlings greenhouse frost',
      topK: 3
    })
    expect(md.hits[0].path).toBe(join(k.docs, KNOWLEDGE_FACTS.md.file))
    expect(md.hits[0].location).toMatchObject({ kind: 'lines', startLine: 1 })

    // The citation viewer reads the cited page, through the same reader.
    const page = await k.router.call(knowledgeReadSource, {
      baseId: base.id,
      path: pdf.hits[0].path,
      location: pdf.hits[0].location
    })
    expect(page).toMatchObject({ pageCount: 3, changedSinceIndexed: false })
    expect(page.text).toContain(KNOWLEDGE_FACTS.pdf.text)
    expect(page.text).not.toContain('tide tables')
  })

  it('announces progress from scanning to done, never going back, with files and chunks counted', async () => {
    const k = await setup()
    await writeKnowledgeFolder(k.docs)
    const base = await createBase(k, [k.pickFolder(k.docs)])
    const mine = k.progress.filter((p) => p.baseId === base.id)
    expect(mine[0].phase).toBe('scanning')
    const last = mine[mine.length - 1]
    expect(last).toMatchObject({ phase: 'done', filesDone: 3, filesTotal: 3 })
    expect(last.chunksDone).toBe(last.chunksTotal)
    expect(last.chunksDone).toBe(base.chunkCount)
    for (let i = 1; i < mine.length; i++)
      expect(mine[i].chunksDone).toBeGreaterThanOrEqual(mine[i - 1].chunksDone)
  })

  it('indexes an XLSX by sheet and rows and HTML as text; reads a cited row range back', async () => {
    const k = await setup()
    writeFileSync(
      join(k.docs, 'prices.xlsx'),
      await makeXlsx({
        Fruit: [
          ['Item', 'Price'],
          ['Apple', 3],
          ['Quince', 11]
        ],
        Tools: [
          ['Item', 'Price'],
          ['Wheelbarrow', 80]
        ]
      })
    )
    writeFileSync(
      join(k.docs, 'page.html'),
      '<html><head><title>Ferry</title><script>var secret = "never indexed"</script></head><body><article><h1>Ferry</h1><p>The ferry to Skerry Island leaves at dawn from pier nine.</p></article></body></html>'
    )
    const base = await createBase(k, [k.pickFolder(k.docs)])
    expect(base.fileCount).toBe(2)
    const sheet = await k.router.call(knowledgeSearch, {
      baseIds: [base.id],
      query: 'wheelbarrow price',
      topK: 1
    })
    expect(sheet.hits[0].location).toEqual({ kind: 'sheet', sheet: 'Tools', startRow: 2, endRow: 2 })
    expect(sheet.hits[0].text).toContain('| Item | Price |')
    const rows = await k.router.call(knowledgeReadSource, {
      baseId: base.id,
      path: sheet.hits[0].path,
      location: sheet.hits[0].location
    })
    expect(rows.text.split('\n')[rows.highlightStartLine - 1]).toContain('Wheelbarrow')
    const html = await k.router.call(knowledgeSearch, { baseIds: [base.id], query: 'ferry pier', topK: 1 })
    expect(html.hits[0].text).toContain('pier nine')
    expect(html.hits[0].text).not.toContain('never indexed')
  })

  it('leaves out .git, node_modules, ignored, binary, unsupported and too-large files and links out of the folder', async () => {
    const k = await setup()
    const outside = join(k.docs, '..', 'outside')
    mkdirSync(outside, { recursive: true })
    writeFileSync(join(outside, 'secret.md'), 'outside secret passphrase')
    const root = join(k.docs, 'project')
    mkdirSync(join(root, '.git'), { recursive: true })
    mkdirSync(join(root, 'node_modules', 'lib'), { recursive: true })
    mkdirSync(join(root, 'build'), { recursive: true })
    writeFileSync(join(root, '.git', 'notes.md'), 'git internals')
    writeFileSync(join(root, 'node_modules', 'lib', 'index.js'), 'dependency code')
    writeFileSync(join(root, '.gitignore'), 'build/\n*.log\n')
    writeFileSync(join(root, 'build', 'out.md'), 'built output')
    writeFileSync(join(root, 'debug.log'), 'log line')
    writeFileSync(join(root, 'readme.md'), 'The real readme of the project.')
    writeFileSync(join(root, 'blob.txt'), Buffer.from([0x61, 0x00, 0x62]))
    writeFileSync(join(root, 'photo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]))
    writeFileSync(join(root, 'huge.md'), 'x'.repeat(60 * 1024 * 1024))
    symlinkSync(join(outside, 'secret.md'), join(root, 'link.md'))
    symlinkSync(outside, join(root, 'linked-folder'))
    const base = await createBase(k, [k.pickFolder(root)])
    expect(base.fileCount).toBe(1)
    expect(base.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: join(root, 'huge.md'), code: 'too_large' }),
        expect.objectContaining({ path: join(root, 'blob.txt'), code: 'unsupported' })
      ])
    )
    const embedded = k.fake.requests.flatMap((r) => r.texts).join('\n')
    expect(embedded).toContain('real readme')
    for (const never of ['git internals', 'dependency code', 'built output', 'log line', 'outside secret'])
      expect(embedded).not.toContain(never)
    // The watcher follows the folders the scan walked: never .git, node_modules, ignored or linked ones.
    const { folders } = await scanFolder(root, { maxFileBytes: 1024, excluded: [] })
    expect(folders).toEqual([root])
  })

  it('a damaged file fails alone and is listed; the other files are indexed', async () => {
    const k = await setup()
    await writeKnowledgeFolder(k.docs)
    writeFileSync(join(k.docs, 'broken.pdf'), Buffer.from('%PDF-1.7\nthis is not a pdf at all'))
    const base = await createBase(k, [k.pickFolder(k.docs)])
    expect(base.status).toBe('idle')
    expect(base.fileCount).toBe(3)
    expect(base.errors).toEqual([
      expect.objectContaining({ path: join(k.docs, 'broken.pdf'), code: 'unreadable' })
    ])
  })

  it('re-indexes changed, added and removed files only (mtime and size, then the hash)', async () => {
    const k = await setup()
    await writeKnowledgeFolder(k.docs)
    const base = await createBase(k, [k.pickFolder(k.docs)])
    const before = k.fake.embeddedCount()
    const mdPath = join(k.docs, KNOWLEDGE_FACTS.md.file)

    // Touched but the same bytes: nothing is embedded again.
    const later = new Date(Date.now() + 60_000)
    utimesSync(mdPath, later, later)
    await k.router.call(knowledgeReindex, { baseId: base.id })
    await k.h.presenters.knowledge.whenIdle()
    expect(k.fake.embeddedCount()).toBe(before)

    // Changed, added and removed.
    writeFileSync(mdPath, '# Garden notes\n\nPumpkins are harvested after the first October moon.\n')
    writeFileSync(join(k.docs, 'bees.md'), 'The beehives are inspected every other Saturday.')
    rmSync(join(k.docs, KNOWLEDGE_FACTS.docx.file))
    await k.router.call(knowledgeReindex, { baseId: base.id })
    await k.h.presenters.knowledge.whenIdle()
    const after = await k.base(base.id)
    expect(after.fileCount).toBe(3)
    // Only the two new texts were embedded (one chunk each), the PDF was not read again.
    expect(k.fake.embeddedCount()).toBe(before + 2)
    const pumpkins = await k.router.call(knowledgeSearch, {
      baseIds: [base.id],
      query: 'pumpkins harvested',
      topK: 1
    })
    expect(pumpkins.hits[0].text).toContain('October moon')
    const tomato = await k.router.call(knowledgeSearch, {
      baseIds: [base.id],
      query: 'tomato',
      topK: 5,
      mode: 'fulltext'
    })
    expect(tomato.hits).toEqual([])
    const keys = await k.router.call(knowledgeSearch, { baseIds: [base.id], query: 'brass keys', topK: 5 })
    expect(keys.hits.map((h) => h.path)).not.toContain(join(k.docs, KNOWLEDGE_FACTS.docx.file))
  })

  it('adds single files as sources and removes a source with its chunks', async () => {
    const k = await setup()
    const file = join(k.docs, 'single.md')
    writeFileSync(file, 'A lone file about the orchard ladder.')
    await writeKnowledgeFolder(join(k.docs, 'folder'))
    const base = await createBase(k, [k.pickFile(file), k.pickFolder(join(k.docs, 'folder'))])
    expect(base.sources.map((s) => s.kind).sort()).toEqual(['file', 'folder'])
    expect(base.fileCount).toBe(4)
    const folder = base.sources.find((s) => s.kind === 'folder')!
    const { base: after } = await k.router.call(knowledgeRemoveSource, {
      baseId: base.id,
      sourceId: folder.id
    })
    expect(after.fileCount).toBe(1)
    const hits = await k.router.call(knowledgeSearch, {
      baseIds: [base.id],
      query: 'lighthouse lamp',
      topK: 5
    })
    expect(hits.hits.every((h) => h.path === file)).toBe(true)
  })

  it('refuses sources the page merely names, spent or foreign picks, and creates nothing', async () => {
    const k = await setup()
    await writeKnowledgeFolder(k.docs)
    const embedding = { providerId: k.providerId, modelId: 'm' }
    await expect(
      k.router.call(knowledgeCreate, { name: 'A', sources: [k.docs], embedding })
    ).rejects.toMatchObject({
      code: 'path_not_picked'
    })
    const token = k.pickFolder(k.docs)
    await expect(
      k.router.call(
        knowledgeCreate,
        { name: 'B', sources: [token], embedding },
        { transport: 'test', clientId: 'other' }
      )
    ).rejects.toMatchObject({ code: 'pick_expired' })
    await k.router.call(knowledgeCreate, { name: 'C', sources: [token], embedding })
    await expect(
      k.router.call(knowledgeCreate, { name: 'D', sources: [token], embedding })
    ).rejects.toMatchObject({
      code: 'pick_expired'
    })
    await k.h.presenters.knowledge.whenIdle()
    expect(k.h.presenters.knowledge.list().map((b) => b.name)).toEqual(['C'])
  })

  it('reads only files indexed in the base: any other path is refused', async () => {
    const k = await setup()
    await writeKnowledgeFolder(k.docs)
    const base = await createBase(k, [k.pickFolder(k.docs)])
    await expect(
      k.router.call(knowledgeReadSource, {
        baseId: base.id,
        path: k.h.presenters.platform.secretsFile,
        location: { kind: 'lines', startLine: 1, endLine: 10 }
      })
    ).rejects.toMatchObject({ code: 'knowledge_file_unknown' })
    await expect(
      k.router.call(knowledgeReadSource, {
        baseId: base.id,
        path: join(k.docs, '..', 'docs', KNOWLEDGE_FACTS.md.file, '..', '..', 'data', 'x'),
        location: { kind: 'lines', startLine: 1, endLine: 1 }
      })
    ).rejects.toMatchObject({ code: 'knowledge_file_unknown' })
  })

  it('never adds the app data folder’s files, and never reads through a folder swapped for a link', async () => {
    const k = await setup()
    const { files, refused } = await k.router.call(knowledgeChooseFiles, {
      paths: [k.h.presenters.platform.secretsFile, join(k.h.dataDir, 'nothing.md')]
    })
    expect(files).toEqual([])
    expect(refused.map((r) => r.path)).toEqual([
      k.h.presenters.platform.secretsFile,
      join(k.h.dataDir, 'nothing.md')
    ])

    const sub = join(k.docs, 'sub')
    mkdirSync(sub)
    writeFileSync(join(sub, 'notes.md'), 'The pantry key hangs by the door.')
    const base = await createBase(k, [k.pickFolder(k.docs)])
    expect(base.fileCount).toBe(1)
    const outside = join(k.docs, '..', 'elsewhere')
    mkdirSync(outside)
    writeFileSync(join(outside, 'notes.md'), 'Something the user never added.')
    renameSync(sub, join(k.docs, 'sub-moved'))
    symlinkSync(outside, sub)
    await expect(
      k.router.call(knowledgeReadSource, {
        baseId: base.id,
        path: join(sub, 'notes.md'),
        location: { kind: 'lines', startLine: 1, endLine: 1 }
      })
    ).rejects.toMatchObject({ code: 'knowledge_file_gone' })
    await k.router.call(knowledgeReindex, { baseId: base.id })
    await k.h.presenters.knowledge.whenIdle()
    const embedded = k.fake.requests.flatMap((r) => r.texts).join('\n')
    expect(embedded).not.toContain('never added')
    expect((await k.base(base.id)).fileCount).toBe(1)
  })

  it('keeps the embedding model: only changeEmbedding with reembed changes it, and every chunk is embedded again', async () => {
    const k = await setup()
    await writeKnowledgeFolder(k.docs)
    const base = await createBase(k, [k.pickFolder(k.docs)])
    await expect(
      k.router.call(knowledgeChangeEmbedding, {
        baseId: base.id,
        embedding: { providerId: k.providerId, modelId: 'other' }
      } as never)
    ).rejects.toMatchObject({ code: 'invalid_input' })
    const before = k.fake.embeddedCount()
    await k.router.call(knowledgeChangeEmbedding, {
      baseId: base.id,
      embedding: { providerId: k.providerId, modelId: 'text-embedding-3-large' },
      reembed: true
    })
    await k.h.presenters.knowledge.whenIdle()
    const after = await k.base(base.id)
    expect(after.embedding.modelId).toBe('text-embedding-3-large')
    expect(k.fake.embeddedCount() - before).toBe(base.chunkCount)
    // A query is embedded with the base's own (new) model.
    await k.router.call(knowledgeSearch, { baseIds: [base.id], query: 'lighthouse', topK: 1 })
    expect(k.fake.requests.at(-1)?.model).toBe('text-embedding-3-large')
  })

  it('a provider that refuses the key stops the run with the reason, never the key; a re-index after fixing it completes', async () => {
    const k = await setup()
    await writeKnowledgeFolder(k.docs)
    await k.h.presenters.llmProviders.updateProvider(k.providerId, { apiKey: 'sk-wrong-key-000000' })
    const base = await createBase(k, [k.pickFolder(k.docs)])
    expect(base.status).toBe('error')
    expect(base.lastError).toMatch(/refused the API key \(HTTP 401\)/)
    expect(base.lastError).not.toContain('sk-wrong')
    await k.h.presenters.llmProviders.updateProvider(k.providerId, { apiKey: 'sk-embed-0123456789' })
    await k.router.call(knowledgeReindex, { baseId: base.id })
    await k.h.presenters.knowledge.whenIdle()
    expect(await k.base(base.id)).toMatchObject({ status: 'idle', fileCount: 3, lastError: null })
  })

  it('removing a base deletes its index and detaches it from chats, never the files', async () => {
    const k = await setup()
    await writeKnowledgeFolder(k.docs)
    const base = await createBase(k, [k.pickFolder(k.docs)])
    k.h.presenters.knowledge.setSessionBases(k.h.sessionId, [base.id])
    expect(await k.router.call(knowledgeRemove, { baseId: base.id })).toEqual({ removed: true })
    expect(k.h.presenters.knowledge.sessionBases(k.h.sessionId)).toEqual([])
    const db = k.h.presenters.sqlite.db
    expect(db.prepare('SELECT COUNT(*) AS n FROM knowledge_chunks').get()).toEqual({ n: 0 })
    expect(db.prepare('SELECT COUNT(*) AS n FROM knowledge_vec_256').get()).toEqual({ n: 0 })
    expect(
      db
        .prepare(
          `SELECT COUNT(*) AS n FROM knowledge_chunks_fts WHERE knowledge_chunks_fts MATCH 'lighthouse'`
        )
        .get()
    ).toEqual({ n: 0 })
    await expect(makePdf(['still here'])).resolves.toBeInstanceOf(Buffer)
    expect(k.h.presenters.knowledge.list()).toEqual([])
  })
})
