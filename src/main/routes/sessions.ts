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
  {
    sessions,
    sessionSettings,
    tools,
    workspaces,
    pathGrants
  }: Pick<Presenters, 'sessions' | 'sessionSettings' | 'tools' | 'workspaces' | 'pathGrants'>
): void {
  // A folder from the page is a pick token or one main already holds (pathGrants).
  router.handle(sessionsCreate, ({ session }, { clientId }) => {
    const { workspaceDir } = session
    return {
      session: sessions.create(
        workspaceDir
          ? { ...session, workspaceDir: workspaces.validate(pathGrants.folderFrom(workspaceDir, clientId)) }
          : { ...session, workspaceDir: workspaceDir === undefined ? undefined : null }
      )
    }
  })
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
  router.handle(sessionsUpdateSettings, async ({ sessionId, patch }, { clientId }) => ({
    settings: await sessionSettings.update(
      sessionId,
      patch.workspaceDir
        ? { ...patch, workspaceDir: pathGrants.folderFrom(patch.workspaceDir, clientId) }
        : patch
    )
  }))
}
