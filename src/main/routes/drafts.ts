import { draftsGet, draftsSave } from '@shared/contracts/routes/drafts.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerDraftRoutes(router: Router, { drafts }: Pick<Presenters, 'drafts'>): void {
  router.handle(draftsGet, ({ sessionId }) => ({ draft: drafts.get(sessionId) }))
  router.handle(draftsSave, ({ sessionId, ...draft }) => ({ saved: drafts.save(sessionId, draft) }))
}
