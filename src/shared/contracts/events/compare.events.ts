import { z } from 'zod'
import { defineEvent } from '../define'
import { CompareView } from '../../types/compare'

/**
 * A comparison changed (a run's status, tool calls, files, tokens; kept or discarded). The runs'
 * text streams as the chat's own `chat.stream.*` events of each run's child session.
 */
export const compareUpdated = defineEvent({
  name: 'compare.updated',
  payload: z.object({ sessionId: z.string(), compare: CompareView })
})
