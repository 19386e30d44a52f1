import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fetch as undiciFetch } from 'undici'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import type { Component } from 'vue'
import { createAppI18n } from '@renderer/i18n'
import { useKnowledgeStore } from '@renderer/stores/knowledge'
import KnowledgeSettings from '@renderer/pages/settings/KnowledgeSettings.vue'
import KnowledgeChips from '@renderer/components/chat/input/KnowledgeChips.vue'
import KnowledgeSourceViewer from '@renderer/components/knowledge/KnowledgeSourceViewer.vue'
import { closeSourceViewer, openSourceViewer } from '@renderer/components/knowledge/viewerState'
import { useRealBridge } from '../helpers/realBridge'
import { eventually } from '../settings/helpers'
import { startFakeEmbeddings, type FakeEmbeddingServer } from '../../fixtures/llm/fakeEmbeddings'
import { KNOWLEDGE_FACTS, writeKnowledgeFolder } from '../../fixtures/knowledge'

let embeddings: FakeEmbeddingServer
let folder: string
let bridge: ReturnType<typeof useRealBridge> | undefined
let unmount: Array<() => void> = []

beforeAll(async () => {
  // Main's requests go out through Node's fetch (undici), as in the app; the test page's DOM
  // fetch would apply a browser's cross-origin rules to them.
  vi.stubGlobal('fetch', undiciFetch)
  embeddings = await startFakeEmbeddings()
  folder = await writeKnowledgeFolder(mkdtempSync(join(tmpdir(), 'deepchat-kb-page-')))
})
afterAll(async () => {
  vi.unstubAllGlobals()
  await embeddings?.close()
  rmSync(folder, { recursive: true, force: true })
})
afterEach(async () => {
  closeSourceViewer()
  unmount.forEach((off) => off())
  unmount = []
  useKnowledgeStore().dispose()
  await bridge?.dispose()
  bridge = undefined
})

async function setUp(): Promise<NonNullable<typeof bridge>> {
  bridge = useRealBridge()
  setActivePinia(createPinia())
  await bridge.presenters.llmProviders.addProvider({
    id: 'embed',
    kind: 'openai-compatible',
    name: 'Embedder',
    baseUrl: embeddings.baseUrl,
    apiKey: 'sk-embed-0123456789',
    models: []
  })
  return bridge
}

async function mountIt(component: Component, props: Record<string, unknown> = {}) {
  const wrapper = mount(component, {
    props,
    global: { plugins: [createAppI18n('en-US')] },
    attachTo: document.body
  })
  unmount.push(() => wrapper.unmount())
  await flushPromises()
  return wrapper
}

/** Creates a base of the fixture folder through the page, as the user does, and waits until it is indexed. */
async function createThroughPage(wrapper: Awaited<ReturnType<typeof mountIt>>): Promise<string> {
  await wrapper.get('[data-testid="knowledge-new"]').trigger('click')
  await wrapper.get('[data-testid="knowledge-create-name"]').setValue('Manuals')
  await wrapper.get('[data-testid="knowledge-create-path"]').setValue(folder)
  await wrapper.get('[data-testid="knowledge-create-add-path"]').trigger('click')
  await eventually(() =>
    expect(wrapper.get('[data-testid="knowledge-create-sources"]').text()).toContain(folder)
  )
  await eventually(() =>
    expect(
      (wrapper.get('[data-testid="knowledge-create-embedding-provider"]').element as HTMLSelectElement).value
    ).toBe('embed')
  )
  await wrapper.get('[data-testid="knowledge-create-embedding-model"]').setValue('embed-small')
  await wrapper.get('[data-testid="knowledge-create"]').trigger('submit')
  await eventually(() => expect(wrapper.find('[data-testid="knowledge-base"]').exists()).toBe(true))
  const card = wrapper.get('[data-testid="knowledge-base"]')
  await eventually(() => {
    expect(card.attributes('data-status')).toBe('idle')
    expect(card.get('[data-testid="knowledge-base-files"]').text()).toBe('3')
  }, 20_000)
  return card.attributes('data-base-id')!
}

describe('Settings › Knowledge', () => {
  it('a path that is neither a file nor a folder is refused with the reason, and nothing is added', async () => {
    await setUp()
    const page = await mountIt(KnowledgeSettings)
    await page.get('[data-testid="knowledge-new"]').trigger('click')
    await page.get('[data-testid="knowledge-create-path"]').setValue(join(folder, 'no-such-thing'))
    await page.get('[data-testid="knowledge-create-add-path"]').trigger('click')
    await eventually(() =>
      expect(page.get('[data-testid="knowledge-create-path-error"]').text()).toContain('no-such-thing')
    )
    expect(page.find('[data-testid="knowledge-create-sources"]').exists()).toBe(false)
    // Without a source the base cannot be created.
    expect(page.get('[data-testid="knowledge-create-save"]').attributes('disabled')).toBeDefined()
  })

  it('suggests the provider’s own embedding models first, then the usual ones of its kind', async () => {
    const b = await setUp()
    await b.presenters.llmProviders.updateProvider('embed', {
      models: [
        { id: 'chat-large', name: 'chat-large' },
        { id: 'house-embed-v2', name: 'house-embed-v2' }
      ]
    })
    const page = await mountIt(KnowledgeSettings)
    await useKnowledgeStore().loadEmbeddingProviders()
    await page.get('[data-testid="knowledge-new"]').trigger('click')
    await eventually(() =>
      expect(
        (page.get('[data-testid="knowledge-create-embedding-model"]').element as HTMLInputElement).value
      ).toBe('house-embed-v2')
    )
    const listId = page.get('[data-testid="knowledge-create-embedding-model"]').attributes('list')
    const options = [...document.querySelectorAll(`datalist[id="${listId}"] option`)].map((o) =>
      o.getAttribute('value')
    )
    expect(options).toEqual(['house-embed-v2', 'text-embedding-3-small', 'BAAI/bge-m3'])
  })

  it('changes the embedding model only through the re-embed dialog, after its warning', async () => {
    const b = await setUp()
    const page = await mountIt(KnowledgeSettings)
    await useKnowledgeStore().loadEmbeddingProviders()
    const baseId = await createThroughPage(page)
    expect(b.presenters.knowledge.get(baseId).embedding.modelId).toBe('embed-small')

    await page.get('[data-testid="knowledge-base-reembed"]').trigger('click')
    await eventually(() => expect(document.querySelector('[data-testid="knowledge-reembed"]')).not.toBeNull())
    const dialog = () => document.querySelector<HTMLElement>('[data-testid="knowledge-reembed"]')!
    expect(dialog().querySelector('[data-testid="knowledge-reembed-warning"]')!.textContent).toContain(
      'embed-small'
    )
    const confirm = () =>
      dialog().querySelector<HTMLButtonElement>('[data-testid="knowledge-reembed-confirm"]')!
    // The same model is no change: the confirm stays off.
    const model = dialog().querySelector<HTMLInputElement>(
      '[data-testid="knowledge-reembed-embedding-model"]'
    )!
    model.value = 'embed-small'
    model.dispatchEvent(new Event('input'))
    await flushPromises()
    expect(confirm().disabled).toBe(true)
    model.value = 'embed-large'
    model.dispatchEvent(new Event('input'))
    await flushPromises()
    expect(b.presenters.knowledge.get(baseId).embedding.modelId).toBe('embed-small')
    confirm().click()
    await eventually(() => expect(b.presenters.knowledge.get(baseId).embedding.modelId).toBe('embed-large'))
    await eventually(() =>
      expect(page.get('[data-testid="knowledge-base-model"]').text()).toContain('embed-large')
    )
    await b.presenters.knowledge.whenIdle()
  })

  it('removes a base only after the confirm, and the user’s files stay', async () => {
    const b = await setUp()
    const page = await mountIt(KnowledgeSettings)
    await useKnowledgeStore().loadEmbeddingProviders()
    await createThroughPage(page)

    await page.get('[data-testid="knowledge-base-remove"]').trigger('click')
    await eventually(() => expect(document.querySelector('[data-testid="confirm-dialog"]')).not.toBeNull())
    document.querySelector<HTMLButtonElement>('[data-testid="confirm-cancel"]')!.click()
    await flushPromises()
    expect(b.presenters.knowledge.list()).toHaveLength(1)

    await page.get('[data-testid="knowledge-base-remove"]').trigger('click')
    await eventually(() => expect(document.querySelector('[data-testid="confirm-ok"]')).not.toBeNull())
    document.querySelector<HTMLButtonElement>('[data-testid="confirm-ok"]')!.click()
    await eventually(() => expect(page.find('[data-testid="knowledge-base"]').exists()).toBe(false))
    expect(b.presenters.knowledge.list()).toEqual([])
    expect(page.find('[data-testid="knowledge-empty"]').exists()).toBe(true)
    expect(readdirSync(folder).sort()).toEqual(
      [KNOWLEDGE_FACTS.pdf.file, KNOWLEDGE_FACTS.docx.file, KNOWLEDGE_FACTS.md.file].sort()
    )
  })
})

describe('Try a search', () => {
  it('finds the fact’s page, and with the embedding provider down says the hits are full-text only', async () => {
    const b = await setUp()
    const page = await mountIt(KnowledgeSettings)
    await useKnowledgeStore().loadEmbeddingProviders()
    await createThroughPage(page)
    const search = async () => {
      await page.get('[data-testid="knowledge-try-query"]').setValue('heron lighthouse lamp')
      await page.get('[data-testid="knowledge-try"] form').trigger('submit')
    }
    await search()
    await eventually(() =>
      expect(page.get('[data-testid="knowledge-try-hit-link"]').text()).toBe(
        `${KNOWLEDGE_FACTS.pdf.file} · page 2`
      )
    )
    expect(page.find('[data-testid="knowledge-try-warning"]').exists()).toBe(false)

    // Nothing listens there: the query cannot be embedded.
    await b.presenters.llmProviders.updateProvider('embed', { baseUrl: 'http://127.0.0.1:9/v1' })
    await search()
    await eventually(
      () =>
        expect(page.get('[data-testid="knowledge-try-warning"]').text()).toContain('full-text search only'),
      20_000
    )
    expect(page.get('[data-testid="knowledge-try-hit-link"]').text()).toBe(
      `${KNOWLEDGE_FACTS.pdf.file} · page 2`
    )
  }, 30_000)
})

describe('a chat’s knowledge chips', () => {
  it('show the bases the chat searches, follow changes from elsewhere, and ✕ detaches one', async () => {
    const b = await setUp()
    const page = await mountIt(KnowledgeSettings)
    await useKnowledgeStore().loadEmbeddingProviders()
    const baseId = await createThroughPage(page)
    const session = b.presenters.sessions.create({ title: 'a chat' })
    const chips = await mountIt(KnowledgeChips, { sessionId: session.id })
    expect(chips.find('[data-testid="knowledge-chip"]').exists()).toBe(false)

    // Attached elsewhere (another window, the Tools popover): the chip appears.
    b.presenters.knowledge.setSessionBases(session.id, [baseId])
    await eventually(() => expect(chips.get('[data-testid="knowledge-chip"]').text()).toContain('Manuals'))
    await chips.get('[data-testid="knowledge-chip-detach"]').trigger('click')
    await eventually(() => expect(chips.find('[data-testid="knowledge-chip"]').exists()).toBe(false))
    expect(b.presenters.knowledge.sessionBases(session.id)).toEqual([])
  })
})

describe('the source viewer', () => {
  it('shows the cited lines marked, numbered as in the file, and a file’s markup as text', async () => {
    await setUp()
    const page = await mountIt(KnowledgeSettings)
    await useKnowledgeStore().loadEmbeddingProviders()
    const baseId = await createThroughPage(page)
    const viewer = await mountIt(KnowledgeSourceViewer)
    openSourceViewer({
      baseId,
      path: join(folder, KNOWLEDGE_FACTS.md.file),
      location: { kind: 'lines', startLine: 5, endLine: 6 }
    })
    await eventually(() => expect(viewer.find('[data-cited]').exists()).toBe(true))
    const cited = viewer.findAll('[data-cited]')
    expect(cited[0].text()).toContain(KNOWLEDGE_FACTS.md.text)
    // Numbered as in the file: the first cited line is line 5.
    expect(cited[0].text().startsWith('5')).toBe(true)
    expect(viewer.get('[data-testid="knowledge-viewer-location"]').text()).toBe('lines 5–6')
    const text = viewer.get('[data-testid="knowledge-viewer-text"]')
    expect(text.text()).toContain('<img src="x" onerror="alert(1)">')
    expect(text.findAll('img, b, script').length).toBe(0)
    // Not a PDF: no paging.
    expect(viewer.find('[data-testid="knowledge-viewer-next"]').exists()).toBe(false)
  })

  it('names the refusal when a path is not a file of that base', async () => {
    await setUp()
    const page = await mountIt(KnowledgeSettings)
    await useKnowledgeStore().loadEmbeddingProviders()
    const baseId = await createThroughPage(page)
    const viewer = await mountIt(KnowledgeSourceViewer)
    openSourceViewer({ baseId, path: '/etc/passwd', location: { kind: 'lines', startLine: 1, endLine: 1 } })
    await eventually(() => expect(viewer.find('[role="alert"]').exists()).toBe(true))
    expect(viewer.find('[data-cited]').exists()).toBe(false)
    expect(viewer.get('[data-testid="knowledge-viewer-text"]').text()).not.toContain('root:')
  })
})
