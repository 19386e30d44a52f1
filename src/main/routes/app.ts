import { appGetInfo, appOpenExternal } from '@shared/contracts/routes/app.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerAppRoutes(router: Router, { platform }: Pick<Presenters, 'platform'>): void {
  router.handle(appGetInfo, () => ({
    name: platform.appName,
    version: platform.appVersion,
    dataDir: platform.userDataDir,
    platform: platform.kind,
    versions: platform.versions
  }))
  router.handle(appOpenExternal, async ({ url }) => {
    await platform.openExternal(url)
    return { opened: true }
  })
}
