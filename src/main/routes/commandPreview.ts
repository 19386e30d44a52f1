import { commandPreviewGet } from '@shared/contracts/routes/commandPreview.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerCommandPreviewRoutes(
  router: Router,
  { commandPreviews }: Pick<Presenters, 'commandPreviews'>
): void {
  router.handle(commandPreviewGet, async ({ sessionId, interactionId }) => ({
    preview: await commandPreviews.forInteraction(sessionId, interactionId)
  }))
}
