import { z } from 'zod'

/**
 * The append-only tape: every fact a session produced, in order. A regular session's tape id is
 * its session id; a fork (subagent) tape is `${parentTapeId}::fork::${forkId}`.
 */
export const TapeEntryKind = z.enum(['message', 'tool_call', 'tool_result', 'anchor', 'event'])
export type TapeEntryKind = z.infer<typeof TapeEntryKind>

export const JsonObject = z.record(z.string(), z.unknown())
export type JsonObject = z.infer<typeof JsonObject>

export const TapeEntry = z.object({
  tapeId: z.string(),
  entryId: z.number().int().positive(),
  kind: TapeEntryKind,
  name: z.string().nullable(),
  payload: JsonObject,
  meta: JsonObject,
  provenanceKey: z.string().nullable(),
  createdAt: z.number().int()
})
export type TapeEntry = z.infer<typeof TapeEntry>

/** What a caller hands to `append`. A provenance key makes the append idempotent. */
export const TapeEntryInput = z.object({
  kind: TapeEntryKind,
  name: z.string().min(1).max(200).nullable().optional(),
  payload: JsonObject,
  meta: JsonObject.optional(),
  provenanceKey: z.string().min(1).max(500).nullable().optional()
})
export type TapeEntryInput = z.input<typeof TapeEntryInput>

export const ForkStatus = z.enum(['open', 'merged', 'discarded'])
export type ForkStatus = z.infer<typeof ForkStatus>

export const TapeAnchorView = z.object({
  entryId: z.number().int(),
  name: z.string(),
  createdAt: z.number().int()
})
export type TapeAnchorView = z.infer<typeof TapeAnchorView>

export const TapeInfo = z.object({
  tapeId: z.string(),
  sessionId: z.string().nullable(),
  entries: z.number().int(),
  headEntryId: z.number().int(),
  anchors: z.number().int(),
  lastAnchor: TapeAnchorView.nullable(),
  entriesSinceLastAnchor: z.number().int(),
  fork: z
    .object({
      parentTapeId: z.string(),
      forkId: z.string(),
      status: ForkStatus,
      parentHeadEntryId: z.number().int()
    })
    .nullable(),
  tokenizer: z.enum(['trigram', 'unicode61'])
})
export type TapeInfo = z.infer<typeof TapeInfo>

/** A time bound: epoch milliseconds or an ISO date string. Anything else is rejected. */
export const TapeTimeBound = z.union([
  z.number().int().nonnegative(),
  z.iso.datetime({ offset: true }).or(z.iso.date())
])
export type TapeTimeBound = z.infer<typeof TapeTimeBound>

export const TapeSearchOptions = z.object({
  limit: z.number().int().min(1).max(100).default(20),
  kinds: z.array(TapeEntryKind).min(1).optional(),
  start: TapeTimeBound.optional(),
  end: TapeTimeBound.optional()
})
export type TapeSearchOptions = z.input<typeof TapeSearchOptions>

export const TapeSearchHit = z.object({
  tapeId: z.string(),
  entryId: z.number().int(),
  kind: TapeEntryKind,
  name: z.string().nullable(),
  createdAt: z.number().int(),
  summary: z.string(),
  /**
   * One scale for every hit, higher is better: full-text hits get (0, 1) from bm25, hits found
   * only by substring (short queries, short tokens, rows not indexed yet) get 0.
   */
  score: z.number(),
  matchedBy: z.enum(['fts', 'substring'])
})
export type TapeSearchHit = z.infer<typeof TapeSearchHit>

export const TapeContextOptions = z.object({
  before: z.number().int().min(0).max(20).default(2),
  after: z.number().int().min(0).max(20).default(2),
  limit: z.number().int().min(1).max(100).default(50),
  maxBytesPerEntry: z.number().int().min(64).max(8192).default(2048),
  maxTotalBytes: z.number().int().min(256).max(65536).default(16384)
})
export type TapeContextOptions = z.input<typeof TapeContextOptions>

export const TapeContextEntry = z.object({
  entryId: z.number().int(),
  kind: TapeEntryKind,
  name: z.string().nullable(),
  createdAt: z.number().int(),
  requested: z.boolean(),
  evidence: z.object({ text: z.string(), bytes: z.number().int(), truncated: z.boolean() })
})
export type TapeContextEntry = z.infer<typeof TapeContextEntry>

export const TapeContextResult = z.object({
  tapeId: z.string(),
  requestedEntryIds: z.array(z.number().int()),
  matchedEntryIds: z.array(z.number().int()),
  /** Entries left out because a count or byte cap was reached (never silently). */
  omittedEntryIds: z.array(z.number().int()),
  totalBytes: z.number().int(),
  entries: z.array(TapeContextEntry)
})
export type TapeContextResult = z.infer<typeof TapeContextResult>

/** Reconstruction anchors: the latest one decides where the model's context starts. */
export const HANDOFF_PREFIXES = ['handoff/', 'auto_handoff/'] as const
export const FORK_START = 'fork/start'
export const FORK_MERGE = 'fork/merge'
export const FORK_DISCARD = 'fork/discard'
export const SESSION_START = 'session/start'
export const FORK_SEPARATOR = '::fork::'
