import { z } from 'zod'

/**
 * Knowledge bases: files and folders the user chose, chunked, embedded with one embedding model
 * (fixed per base) and searched by the model's `knowledge_search` tool (vector kNN + FTS5, fused
 * by reciprocal rank). See docs/knowledge.md.
 */

export const KNOWLEDGE_LIMITS = {
  maxBases: 200,
  maxNameChars: 100,
  maxSourcesPerCall: 100,
  /** Files larger than this are skipped (the base's errors say so). */
  maxFileBytes: 50 * 1024 * 1024,
  maxQueryChars: 1000,
  maxTopK: 20,
  defaultTopK: 5,
  maxBasesPerSession: 20
} as const

export const KnowledgeBaseId = z.string().regex(/^kb_[A-Za-z0-9_-]{6,40}$/, 'not a knowledge base id')
export type KnowledgeBaseId = z.infer<typeof KnowledgeBaseId>

/** Which providers can embed: their kinds speak one of the three embedding wire formats. */
export const EmbeddingProviderKind = z.enum(['openai', 'openai-compatible', 'gemini', 'ollama', 'mistral'])
export type EmbeddingProviderKind = z.infer<typeof EmbeddingProviderKind>

/** The embedding model of a base: a provider of the user's and a model id; `dimensions` once known. */
export const EmbeddingModelRef = z
  .object({
    providerId: z.string().min(1).max(64),
    modelId: z.string().trim().min(1).max(200)
  })
  .strict()
export type EmbeddingModelRef = z.infer<typeof EmbeddingModelRef>

/** A provider the user has that can embed, and models worth suggesting (any model id may be typed). */
export const EmbeddingProviderView = z.object({
  providerId: z.string(),
  name: z.string(),
  kind: EmbeddingProviderKind,
  suggestedModels: z.array(z.string())
})
export type EmbeddingProviderView = z.infer<typeof EmbeddingProviderView>

/**
 * Where a chunk is in its file: a PDF page, a line range of a text file (Markdown, code, HTML's
 * markdown, DOCX's text) or rows of a spreadsheet's sheet (rows of its Markdown table, 1-based).
 */
export const KnowledgeLocation = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('page'), page: z.number().int().min(1) }),
  z.object({
    kind: z.literal('lines'),
    startLine: z.number().int().min(1),
    endLine: z.number().int().min(1)
  }),
  z.object({
    kind: z.literal('sheet'),
    sheet: z.string().max(300),
    startRow: z.number().int().min(1),
    endRow: z.number().int().min(1)
  })
])
export type KnowledgeLocation = z.infer<typeof KnowledgeLocation>

/** How a location reads in a citation: "page 3", "lines 10–24", "Sheet1 rows 2–9". */
export function locationLabel(location: KnowledgeLocation): string {
  switch (location.kind) {
    case 'page':
      return `page ${location.page}`
    case 'lines':
      return location.startLine === location.endLine
        ? `line ${location.startLine}`
        : `lines ${location.startLine}–${location.endLine}`
    case 'sheet':
      return `${location.sheet} rows ${location.startRow}–${location.endRow}`
  }
}

/** `idle`: indexed and current; `indexing`/`queued`: work pending; `error`: the last run failed as a whole. */
export const KnowledgeBaseStatus = z.enum(['idle', 'queued', 'indexing', 'cancelled', 'error'])
export type KnowledgeBaseStatus = z.infer<typeof KnowledgeBaseStatus>

/** A file or folder of a base, as the user added it (real path, no link). */
export const KnowledgeSourceView = z.object({
  id: z.string(),
  kind: z.enum(['file', 'folder']),
  path: z.string(),
  /** Whether it is still there (a moved folder is kept, its files are dropped from the index). */
  present: z.boolean()
})
export type KnowledgeSourceView = z.infer<typeof KnowledgeSourceView>

/** A file the last run could not index, or skipped on purpose (too big, binary, unsupported). */
export const KnowledgeFileError = z.object({
  path: z.string(),
  code: z.enum(['too_large', 'unsupported', 'unreadable', 'embedding_failed', 'empty']),
  message: z.string()
})
export type KnowledgeFileError = z.infer<typeof KnowledgeFileError>

export const KnowledgeProgressPhase = z.enum([
  'scanning',
  'reading',
  'embedding',
  'done',
  'cancelled',
  'failed'
])
export type KnowledgeProgressPhase = z.infer<typeof KnowledgeProgressPhase>

/** Where a run is: files and chunks done of those found so far, and the file being read. */
export const KnowledgeProgress = z.object({
  baseId: KnowledgeBaseId,
  phase: KnowledgeProgressPhase,
  filesDone: z.number().int().nonnegative(),
  filesTotal: z.number().int().nonnegative(),
  chunksDone: z.number().int().nonnegative(),
  chunksTotal: z.number().int().nonnegative(),
  currentFile: z.string().nullable()
})
export type KnowledgeProgress = z.infer<typeof KnowledgeProgress>

export const KnowledgeBaseView = z.object({
  id: KnowledgeBaseId,
  name: z.string(),
  embedding: EmbeddingModelRef.extend({
    /** Null until the first embedding answered. */
    dimensions: z.number().int().positive().nullable()
  }),
  sources: z.array(KnowledgeSourceView),
  fileCount: z.number().int().nonnegative(),
  chunkCount: z.number().int().nonnegative(),
  /** Bytes of the indexed files on disk. */
  bytes: z.number().int().nonnegative(),
  status: KnowledgeBaseStatus,
  /** Epoch ms of the last finished run, null before the first. */
  lastIndexedAt: z.number().int().nullable(),
  /** The reason a whole run failed (bad key, provider down), when `status` is `error`. */
  lastError: z.string().nullable(),
  /** Files skipped or failed in the last run, at most 200 (`errorCount` has the full number). */
  errors: z.array(KnowledgeFileError),
  errorCount: z.number().int().nonnegative(),
  /** The run in progress (null when none), as the last progress event said. */
  progress: KnowledgeProgress.nullable(),
  createdAt: z.number().int()
})
export type KnowledgeBaseView = z.infer<typeof KnowledgeBaseView>

/** One hit of a search: the chunk's text, where it is, and its fused score (higher is better). */
export const KnowledgeHit = z.object({
  baseId: KnowledgeBaseId,
  baseName: z.string(),
  chunkId: z.number().int(),
  /** The file's real path. */
  path: z.string(),
  location: KnowledgeLocation,
  score: z.number(),
  /** The chunk's text (for the tool) … */
  text: z.string(),
  /** … and a short piece of it around the query's words (for lists). */
  snippet: z.string()
})
export type KnowledgeHit = z.infer<typeof KnowledgeHit>

/** How a search ranks: both halves fused (the default), or one half alone (for comparing). */
export const KnowledgeSearchMode = z.enum(['hybrid', 'vector', 'fulltext'])
export type KnowledgeSearchMode = z.infer<typeof KnowledgeSearchMode>

/**
 * One numbered source of a `knowledge_search` result, as the model cites it ([1], [2]) and the
 * chat lists it. A click asks `knowledge.readSource` with `baseId`, `path` and `location`.
 */
export const KnowledgeSource = z.object({
  index: z.number().int().min(1).max(99),
  baseId: KnowledgeBaseId,
  baseName: z.string().max(200),
  path: z.string().max(4096),
  location: KnowledgeLocation,
  chunkId: z.number().int()
})
export type KnowledgeSource = z.infer<typeof KnowledgeSource>

/**
 * The first line of a `knowledge_search` result's text: this prefix and the sources as JSON.
 * Main writes it before any file text, so the chat reads the sources from the first line only
 * and nothing in a file can forge an entry (`knowledgeSourcesOf`).
 */
export const KNOWLEDGE_SOURCES_PREFIX = 'knowledge-sources: '

export function knowledgeSourcesLine(sources: KnowledgeSource[]): string {
  return KNOWLEDGE_SOURCES_PREFIX + JSON.stringify(sources)
}

/** The sources of a knowledge_search result's text (its first line), [] when there are none. */
export function knowledgeSourcesOf(response: string | undefined): KnowledgeSource[] {
  if (!response?.startsWith(KNOWLEDGE_SOURCES_PREFIX)) return []
  const end = response.indexOf('\n')
  const line = response.slice(KNOWLEDGE_SOURCES_PREFIX.length, end === -1 ? undefined : end)
  try {
    const parsed = z.array(KnowledgeSource).max(99).safeParse(JSON.parse(line))
    return parsed.success ? parsed.data : []
  } catch {
    return []
  }
}

/** The text around a cited location, for the citation viewer. */
export const KnowledgeSourceText = z.object({
  baseId: KnowledgeBaseId,
  path: z.string(),
  location: KnowledgeLocation,
  /** The text shown: the page, or the cited lines/rows with some context around them. */
  text: z.string(),
  /** The 1-based line of `text` where the cited part starts and ends (for highlighting). */
  highlightStartLine: z.number().int().min(1),
  highlightEndLine: z.number().int().min(1),
  /** For a PDF: how many pages it has (the viewer may page through). */
  pageCount: z.number().int().nullable(),
  /** The file changed since it was indexed: the text may not match the citation exactly. */
  changedSinceIndexed: z.boolean()
})
export type KnowledgeSourceText = z.infer<typeof KnowledgeSourceText>
