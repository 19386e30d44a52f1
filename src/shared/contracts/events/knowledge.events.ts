import { z } from 'zod'
import { defineEvent } from '../define'
import { KnowledgeBaseId, KnowledgeProgress } from '../../types/knowledge'

/** A run moved on (at most a few per second per base, and always its last state). */
export const knowledgeProgressChanged = defineEvent({
  name: 'knowledge.progress.changed',
  payload: z.object({ progress: KnowledgeProgress })
})

/** A base was created, changed (sources, name, model, status, counts after a run) or removed: list again. */
export const knowledgeBaseChanged = defineEvent({
  name: 'knowledge.base.changed',
  payload: z.object({
    baseId: KnowledgeBaseId,
    reason: z.enum(['created', 'updated', 'indexed', 'removed'])
  })
})

/** The bases a chat uses changed (set by the page, or a base was removed). */
export const knowledgeSessionBasesChanged = defineEvent({
  name: 'knowledge.sessionBases.changed',
  payload: z.object({ sessionId: z.string(), baseIds: z.array(KnowledgeBaseId) })
})
