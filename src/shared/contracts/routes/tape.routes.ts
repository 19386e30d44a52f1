import { z } from 'zod'
import { defineRoute } from '../define'
import {
  TapeAnchorView,
  TapeContextOptions,
  TapeContextResult,
  TapeEntry,
  TapeInfo,
  TapeSearchHit,
  TapeSearchOptions
} from '../../types/tape'

/** A session's tape id (its session id) or a fork tape `${parent}::fork::${forkId}`. */
const TapeId = z.string().min(1).max(1000)

export const tapeSearch = defineRoute({
  name: 'tape.search',
  input: z
    .object({
      tapeId: TapeId,
      query: z.string().trim().min(1).max(500),
      options: TapeSearchOptions.optional()
    })
    .strict(),
  output: z.object({ hits: z.array(TapeSearchHit) })
})

export const tapeContext = defineRoute({
  name: 'tape.context',
  input: z
    .object({
      tapeId: TapeId,
      entryIds: z.array(z.number().int().positive()).min(1).max(100),
      options: TapeContextOptions.optional()
    })
    .strict(),
  output: TapeContextResult
})

export const tapeInfo = defineRoute({
  name: 'tape.info',
  input: z.object({ tapeId: TapeId }).strict(),
  output: z.object({ info: TapeInfo })
})

export const tapeAnchors = defineRoute({
  name: 'tape.anchors',
  input: z.object({ tapeId: TapeId, limit: z.number().int().min(1).max(100).default(20) }).strict(),
  output: z.object({ anchors: z.array(TapeAnchorView) })
})

/** The tape inspector: raw entries in order, a page at a time. */
export const tapeEntries = defineRoute({
  name: 'tape.entries',
  input: z
    .object({
      tapeId: TapeId,
      afterEntryId: z.number().int().nonnegative().default(0),
      limit: z.number().int().min(1).max(500).default(100)
    })
    .strict(),
  output: z.object({ entries: z.array(TapeEntry), headEntryId: z.number().int() })
})

export const tapeForks = defineRoute({
  name: 'tape.forks',
  input: z.object({ tapeId: TapeId }).strict(),
  output: z.object({
    forks: z.array(
      z.object({
        tapeId: z.string(),
        forkId: z.string(),
        status: z.string(),
        parentHeadEntryId: z.number().int()
      })
    )
  })
})
