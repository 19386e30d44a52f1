import { z } from 'zod'
import { defineEvent } from '../define'
import { SessionStatus } from '../../types/session'

export const sessionsUpdated = defineEvent({
  name: 'sessions.list.updated',
  payload: z.object({
    sessionIds: z.array(z.string()),
    reason: z.enum(['created', 'updated', 'deleted'])
  })
})

export const sessionsStatusChanged = defineEvent({
  name: 'sessions.status.changed',
  payload: z.object({
    sessionId: z.string(),
    status: SessionStatus,
    /** Increases with every change, so a late event never overwrites a newer status. */
    version: z.number().int()
  })
})

export const sessionsInteractionsChanged = defineEvent({
  name: 'sessions.interactions.changed',
  payload: z.object({
    sessionId: z.string(),
    messageId: z.string(),
    pendingCount: z.number().int().nonnegative()
  })
})
