import { AppError } from '@shared/errors'
import {
  sessionsCreate,
  sessionsFork,
  sessionsGet,
  sessionsGetSettings,
  sessionsOfferedTools,
  sessionsList,
  sessionsListInteractions,
  sessionsPin,
  sessionsPurge,
  sessionsRename,
  sessionsSearchHistory,
  sessionsUpdateSettings
} from '@shared/contracts/routes/sessions.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerSessionRoutes(
  router: Router,
  { sessions, sessionSettings, tools }: Pick<Presenters, 'sessions' | 'sessionSettings' | 'tools'>
): void {
  router.handle(sessionsCreate, ({ session }) => ({ session: sessions.create(session) }))
  router.handle(sessionsList, (input) => sessions.list(input))
  router.handle(sessionsGet, ({ sessionId }) => ({
    session: sessions.require(sessionId),
    children: sessions.children(sessionId)
  }))
  router.handle(sessionsRename, ({ sessionId, title }) => ({ session: sessions.rename(sessionId, title) }))
  router.handle(sessionsPin, ({ sessionId, pinned }) => ({ session: sessions.setPinned(sessionId, pinned) }))
  router.handle(sessionsPurge, ({ sessionId }) => ({ purgedSessionIds: sessions.purge(sessionId) }))
  router.handle(sessionsFork, ({ sessionId, messageId, title }) => ({
    session: sessions.forkFromMessage(sessionId, messageId, { title })
  }))
  router.handle(sessionsListInteractions, ({ sessionId, pendingOnly }) => {
    sessions.require(sessionId)
    return {
      interactions: sessions.interactions.list({ sessionId, status: pendingOnly ? 'pending' : undefined })
    }
  })
  router.handle(sessionsSearchHistory, ({ query, ...options }) => {
    if (!query) throw new AppError('invalid_query', 'The search query is empty')
    return { hits: sessions.searchHistory(query, options) }
  })
  router.handle(sessionsOfferedTools, ({ sessionId }) => {
    const { id, workspaceDir, permissionMode } = sessions.require(sessionId)
    return tools.offeredTools({ sessionId: id, workspaceDir, permissionMode })
  })
  router.handle(sessionsGetSettings, ({ sessionId }) => ({ settings: sessionSettings.get(sessionId) }))
  router.handle(sessionsUpdateSettings, async ({ sessionId, patch }) => ({
    settings: await sessionSettings.update(sessionId, patch)
  }))
}
