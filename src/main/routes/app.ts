import { appGetInfo, appOpenExternal, appPickFolder } from '@shared/contracts/routes/app.routes'
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
  router.handle(appPickFolder, async (options) => {
    if (!platform.pickFolder) return { supported: false as const }
    return { supported: true as const, path: await platform.pickFolder(options) }
  })
}
