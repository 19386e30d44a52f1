import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { EventPayload } from '@shared/contracts/define'
import { knowledgeProgressChanged } from '@shared/contracts/events/knowledge.events'
import { knowledgeList } from '@shared/contracts/routes/knowledge.routes'
import type { KnowledgeBaseView, KnowledgeProgress } from '@shared/types/knowledge'
import { createRouter } from '../../../src/main/routes'
import type { Router } from '../../../src/main/bridge/router'
import { createFeatureHarness, type FeatureHarness } from '../tools/featureHarness'
import {
  startFakeEmbeddings,
  type FakeEmbeddingOptions,
  type FakeEmbeddingServer
} from '../../fixtures/llm/fakeEmbeddings'

export const EMBEDDING_KEY = 'sk-embed-0123456789'

/** Real presenters (real SQLite with sqlite-vec) on a temp data folder, a fake embedding server and a provider for it. */
export interface KnowledgeHarness {
  h: FeatureHarness
  router: Router
  fake: FakeEmbeddingServer
  providerId: string
  /** A folder for the test's documents. */
  docs: string
  /** A pick token for a folder or file, as main's pickers issue them (client `test`). */
  pickFolder(path: string): string
  pickFile(path: string): string
  base(id: string): Promise<KnowledgeBaseView>
  progress: KnowledgeProgress[]
  close(): Promise<void>
}

export async function createKnowledgeHarness(
  options: { fake?: FakeEmbeddingOptions; kind?: 'openai' | 'gemini' | 'ollama' } = {}
): Promise<KnowledgeHarness> {
  const h = createFeatureHarness()
  const fake = await startFakeEmbeddings({ apiKey: EMBEDDING_KEY, ...options.fake })
  const kind = options.kind ?? 'openai'
  const baseUrl =
    kind === 'gemini' ? fake.geminiBaseUrl : kind === 'ollama' ? fake.ollamaBaseUrl : fake.baseUrl
  const provider = await h.presenters.llmProviders.addProvider({
    kind,
    name: `Fake ${kind}`,
    baseUrl,
    apiKey: EMBEDDING_KEY,
    models: [],
    fetchModels: false
  })
  const progress: KnowledgeProgress[] = []
  h.presenters.events.subscribe((name, payload) => {
    if (name === knowledgeProgressChanged.name)
      progress.push((payload as EventPayload<typeof knowledgeProgressChanged>).progress)
  })
  const router = createRouter(h.presenters)
  const docs = join(h.workspace, '..', 'docs')
  mkdirSync(docs, { recursive: true })
  return {
    h,
    router,
    fake,
    providerId: provider.id,
    docs,
    pickFolder: (path) => h.presenters.pathGrants.issue(path, 'test').token,
    pickFile: (path) => h.presenters.knowledge.issueFilePicks([path], 'test')[0].token,
    async base(id) {
      const { bases } = await router.call(knowledgeList, {})
      const found = bases.find((b) => b.id === id)
      if (!found) throw new Error(`no base ${id}`)
      return found
    },
    progress,
    async close() {
      await h.close()
      await fake.close()
    }
  }
}
