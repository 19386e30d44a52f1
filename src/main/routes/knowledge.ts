import {
  knowledgeAddSources,
  knowledgeCancel,
  knowledgeChangeEmbedding,
  knowledgeChooseFiles,
  knowledgeCreate,
  knowledgeGetSessionBases,
  knowledgeList,
  knowledgeListEmbeddingProviders,
  knowledgePickFiles,
  knowledgeReadSource,
  knowledgeReindex,
  knowledgeRemove,
  knowledgeRemoveSource,
  knowledgeRename,
  knowledgeSearch,
  knowledgeSetSessionBases
} from '@shared/contracts/routes/knowledge.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerKnowledgeRoutes(
  router: Router,
  { knowledge, platform }: Pick<Presenters, 'knowledge' | 'platform'>
): void {
  router.handle(knowledgeList, () => ({ bases: knowledge.list() }))
  router.handle(knowledgeListEmbeddingProviders, () => ({ providers: knowledge.embeddingProviders() }))
  router.handle(knowledgeCreate, (input, { clientId }) => ({ base: knowledge.create(input, clientId) }))
  router.handle(knowledgeRename, ({ baseId, name }) => ({ base: knowledge.rename(baseId, name) }))
  router.handle(knowledgeAddSources, ({ baseId, sources }, { clientId }) => ({
    base: knowledge.addSources(baseId, sources, clientId)
  }))
  router.handle(knowledgeRemoveSource, async ({ baseId, sourceId }) => ({
    base: await knowledge.removeSource(baseId, sourceId)
  }))
  router.handle(knowledgeReindex, ({ baseId, full }) => ({ base: knowledge.reindex(baseId, full) }))
  router.handle(knowledgeCancel, ({ baseId }) => ({ base: knowledge.cancel(baseId) }))
  router.handle(knowledgeChangeEmbedding, async ({ baseId, embedding }) => ({
    base: await knowledge.changeEmbedding(baseId, embedding)
  }))
  router.handle(knowledgeRemove, async ({ baseId }) => ({ removed: await knowledge.remove(baseId) }))
  router.handle(knowledgeSearch, (input) => knowledge.search(input))
  router.handle(knowledgeReadSource, ({ baseId, path, location }) =>
    knowledge.readSource(baseId, path, location)
  )
  // What the dialog answers is the only way a file the page names becomes a source.
  router.handle(knowledgePickFiles, async ({ title }, { clientId }) => {
    if (!platform.pickFiles) return { supported: false as const }
    const paths = await platform.pickFiles({ title })
    return { supported: true as const, files: knowledge.issueFilePicks(paths, clientId) }
  })
  router.handle(knowledgeChooseFiles, ({ paths }, { clientId }) => knowledge.chooseFiles(paths, clientId))
  router.handle(knowledgeGetSessionBases, ({ sessionId }) => ({ baseIds: knowledge.sessionBases(sessionId) }))
  router.handle(knowledgeSetSessionBases, ({ sessionId, baseIds }) => ({
    baseIds: knowledge.setSessionBases(sessionId, baseIds)
  }))
}
