import { z } from 'zod'
import { defineRoute } from '../define'
import {
  EmbeddingModelRef,
  EmbeddingProviderView,
  KNOWLEDGE_LIMITS,
  KnowledgeBaseId,
  KnowledgeBaseView,
  KnowledgeHit,
  KnowledgeLocation,
  KnowledgeSearchMode,
  KnowledgeSourceText
} from '../../types/knowledge'

const Name = z.string().trim().min(1).max(KNOWLEDGE_LIMITS.maxNameChars)
/**
 * A file or folder for a base: a pick token only. Folders come from `app.pickFolder` /
 * `app.chooseFolder`, files from `knowledge.pickFiles` / `knowledge.chooseFiles`; a path the
 * page merely names is refused (`path_not_picked`).
 */
const SourceTokens = z.array(z.string().min(1).max(200)).min(1).max(KNOWLEDGE_LIMITS.maxSourcesPerCall)
const SessionId = z.string().min(1).max(200)

export const knowledgeList = defineRoute({
  name: 'knowledge.list',
  input: z.object({}).strict(),
  output: z.object({ bases: z.array(KnowledgeBaseView) })
})

/** The user's providers that can embed (OpenAI, OpenAI-compatible, Gemini, Ollama, Mistral). */
export const knowledgeListEmbeddingProviders = defineRoute({
  name: 'knowledge.listEmbeddingProviders',
  input: z.object({}).strict(),
  output: z.object({ providers: z.array(EmbeddingProviderView) })
})

/** Creates a base and starts indexing it; progress arrives as `knowledge.progress.changed`. */
export const knowledgeCreate = defineRoute({
  name: 'knowledge.create',
  input: z.object({ name: Name, sources: SourceTokens, embedding: EmbeddingModelRef }).strict(),
  output: z.object({ base: KnowledgeBaseView })
})

export const knowledgeRename = defineRoute({
  name: 'knowledge.rename',
  input: z.object({ baseId: KnowledgeBaseId, name: Name }).strict(),
  output: z.object({ base: KnowledgeBaseView })
})

/** Adds files/folders (pick tokens) and indexes what they add. */
export const knowledgeAddSources = defineRoute({
  name: 'knowledge.addSources',
  input: z.object({ baseId: KnowledgeBaseId, sources: SourceTokens }).strict(),
  output: z.object({ base: KnowledgeBaseView })
})

/** Removes a file/folder and its chunks from the base. */
export const knowledgeRemoveSource = defineRoute({
  name: 'knowledge.removeSource',
  input: z.object({ baseId: KnowledgeBaseId, sourceId: z.string().min(1).max(100) }).strict(),
  output: z.object({ base: KnowledgeBaseView })
})

/**
 * Re-indexes: changed, added and removed files (mtime+size, then hash); `full` re-reads and
 * re-embeds every file.
 */
export const knowledgeReindex = defineRoute({
  name: 'knowledge.reindex',
  input: z.object({ baseId: KnowledgeBaseId, full: z.boolean().default(false) }).strict(),
  output: z.object({ base: KnowledgeBaseView })
})

/** Stops the run in progress; what it finished stays indexed, a re-index continues from there. */
export const knowledgeCancel = defineRoute({
  name: 'knowledge.cancel',
  input: z.object({ baseId: KnowledgeBaseId }).strict(),
  output: z.object({ base: KnowledgeBaseView })
})

/**
 * The one way a base's embedding model changes: every chunk is embedded again with the new one
 * (`reembed: true` says the user chose that). Nothing else changes a base's model.
 */
export const knowledgeChangeEmbedding = defineRoute({
  name: 'knowledge.changeEmbedding',
  input: z
    .object({ baseId: KnowledgeBaseId, embedding: EmbeddingModelRef, reembed: z.literal(true) })
    .strict(),
  output: z.object({ base: KnowledgeBaseView })
})

/** Deletes the base and its index (never the user's files); chats that used it stop using it. */
export const knowledgeRemove = defineRoute({
  name: 'knowledge.remove',
  input: z.object({ baseId: KnowledgeBaseId }).strict(),
  output: z.object({ removed: z.boolean() })
})

/** "Try a search": the same search `knowledge_search` runs, with the base's own embedding model. */
export const knowledgeSearch = defineRoute({
  name: 'knowledge.search',
  input: z
    .object({
      baseIds: z.array(KnowledgeBaseId).min(1).max(KNOWLEDGE_LIMITS.maxBasesPerSession),
      query: z.string().trim().min(1).max(KNOWLEDGE_LIMITS.maxQueryChars),
      topK: z.number().int().min(1).max(KNOWLEDGE_LIMITS.maxTopK).default(KNOWLEDGE_LIMITS.defaultTopK),
      mode: KnowledgeSearchMode.default('hybrid')
    })
    .strict(),
  output: z.object({
    hits: z.array(KnowledgeHit),
    tookMs: z.number(),
    /** Set when the vector half could not run (the provider is down): the hits are full-text only. */
    warning: z.string().optional()
  })
})

/**
 * The text at a cited place, for the citation viewer. Only files indexed in that base are read;
 * any other path is refused (`knowledge_file_unknown`).
 */
export const knowledgeReadSource = defineRoute({
  name: 'knowledge.readSource',
  input: z
    .object({ baseId: KnowledgeBaseId, path: z.string().min(1).max(4096), location: KnowledgeLocation })
    .strict(),
  output: KnowledgeSourceText
})

const PickedFile = z.object({ path: z.string(), token: z.string() })

/** The desktop app's file dialog (several files); the headless host answers `{supported: false}`. */
export const knowledgePickFiles = defineRoute({
  name: 'knowledge.pickFiles',
  input: z.object({ title: z.string().max(200).optional() }).strict(),
  output: z.discriminatedUnion('supported', [
    z.object({ supported: z.literal(false) }),
    z.object({ supported: z.literal(true), files: z.array(PickedFile) })
  ])
})

/**
 * Files the user typed, as picks: the desktop app confirms them in its dialog, the headless host
 * checks each is an existing regular file. A path that is not is named in `refused`.
 */
export const knowledgeChooseFiles = defineRoute({
  name: 'knowledge.chooseFiles',
  input: z.object({ paths: z.array(z.string().min(1).max(4096)).min(1).max(100) }).strict(),
  output: z.object({
    files: z.array(PickedFile),
    refused: z.array(z.object({ path: z.string(), message: z.string() }))
  })
})

/** The bases a chat searches (its `knowledge_search` tool is offered only when there is one). */
export const knowledgeGetSessionBases = defineRoute({
  name: 'knowledge.getSessionBases',
  input: z.object({ sessionId: SessionId }).strict(),
  output: z.object({ baseIds: z.array(KnowledgeBaseId) })
})

/** Sets them; unknown base ids are refused (`knowledge_base_not_found`). */
export const knowledgeSetSessionBases = defineRoute({
  name: 'knowledge.setSessionBases',
  input: z
    .object({
      sessionId: SessionId,
      baseIds: z.array(KnowledgeBaseId).max(KNOWLEDGE_LIMITS.maxBasesPerSession)
    })
    .strict(),
  output: z.object({ baseIds: z.array(KnowledgeBaseId) })
})
