import { webSearchGetSettings, webSearchUpdateSettings } from '@shared/contracts/routes/webSearch.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerWebSearchRoutes(router: Router, { web }: Pick<Presenters, 'web'>): void {
  router.handle(webSearchGetSettings, async () => ({ settings: await web.view() }))
  router.handle(webSearchUpdateSettings, async ({ patch }) => ({ settings: await web.update(patch) }))
}
