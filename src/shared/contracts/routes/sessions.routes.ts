import { z } from 'zod'
import { defineRoute } from '../define'
import {
  CreateSessionInput,
  PendingInteraction,
  SessionRecord,
  SessionSearchHit
} from '../../types/session'
import { TapeEntryKind, TapeTimeBound } from '../../types/tape'

const SessionId = z.string().min(1).max(100)
const MessageId = z.string().min(1).max(100)

export const sessionsCreate = defineRoute({
  name: 'sessions.create',
  input: z.object({ session: CreateSessionInput.default({}) }).strict(),
  output: z.object({ session: SessionRecord })
})

export const sessionsList = defineRoute({
  name: 'sessions.list',
  input: z.object({ limit: z.number().int().min(1).max(200).optional(), cursor: z.string().max(1000).optional() }).strict(),
  output: z.object({ sessions: z.array(SessionRecord), nextCursor: z.string().nullable() })
})

export const sessionsGet = defineRoute({
  name: 'sessions.get',
  input: z.object({ sessionId: SessionId }).strict(),
  output: z.object({ session: SessionRecord, children: z.array(SessionRecord) })
})

export const sessionsRename = defineRoute({
  name: 'sessions.rename',
  input: z.object({ sessionId: SessionId, title: z.string().trim().min(1).max(200) }).strict(),
  output: z.object({ session: SessionRecord })
})

export const sessionsPin = defineRoute({
  name: 'sessions.pin',
  input: z.object({ sessionId: SessionId, pinned: z.boolean() }).strict(),
  output: z.object({ session: SessionRecord })
})

/** Deletes the session, its subagent children and every tape they own. Cannot be undone. */
export const sessionsPurge = defineRoute({
  name: 'sessions.purge',
  input: z.object({ sessionId: SessionId }).strict(),
  output: z.object({ purgedSessionIds: z.array(z.string()) })
})

export const sessionsFork = defineRoute({
  name: 'sessions.fork',
  input: z.object({ sessionId: SessionId, messageId: MessageId, title: z.string().trim().min(1).max(200).optional() }).strict(),
  output: z.object({ session: SessionRecord })
})

// Messages are read through chat.getMessages / chat.getMessage, which know about retried and
// edited turns; there is deliberately no second reading API here.

export const sessionsListInteractions = defineRoute({
  name: 'sessions.listInteractions',
  input: z.object({ sessionId: SessionId, pendingOnly: z.boolean().default(true) }).strict(),
  output: z.object({ interactions: z.array(PendingInteraction) })
})

export const sessionsSearchHistory = defineRoute({
  name: 'sessions.searchHistory',
  input: z
    .object({
      query: z.string().trim().min(1).max(500),
      limit: z.number().int().min(1).max(100).optional(),
      kinds: z.array(TapeEntryKind).min(1).optional(),
      start: TapeTimeBound.optional(),
      end: TapeTimeBound.optional()
    })
    .strict(),
  output: z.object({ hits: z.array(SessionSearchHit) })
})
