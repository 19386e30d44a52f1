import {
  appGetDesktopStatus,
  appGetInfo,
  appGetStorageStatus,
  appInstallUpdate,
  appOpenExternal,
  appPickFolder,
  appResolveDeepLink
} from '@shared/contracts/routes/app.routes'
import type { DesktopStatus } from '@shared/types/desktop'
import { AppError } from '@shared/errors'
import type { Router } from '../bridge/router'
import { checkExternalUrl, refusedUrlError } from '../platform/externalUrl'
import type { Presenters } from '../presenter'

/** What the headless host reports for the desktop shell it does not have. */
const NO_DESKTOP: DesktopStatus = {
  update: { state: 'disabled', reason: 'headless' },
  shortcut: null,
  pendingDeepLinks: []
}

export function registerAppRoutes(
  router: Router,
  { platform, mcp, storage }: Pick<Presenters, 'platform' | 'mcp' | 'storage'>
): void {
  router.handle(appGetStorageStatus, () => storage.status())
  router.handle(appGetInfo, () => ({
    name: platform.appName,
    version: platform.appVersion,
    dataDir: platform.userDataDir,
    platform: platform.kind,
    versions: platform.versions
  }))
  // Checked here as well as in the opener: the window's input is refused at its own boundary.
  router.handle(appOpenExternal, async ({ url }) => {
    const check = checkExternalUrl(url)
    if (!check.ok) throw refusedUrlError(url, check.reason)
    await platform.openExternal(check.href)
    return { opened: true }
  })
  router.handle(appPickFolder, async (options) => {
    if (!platform.pickFolder) return { supported: false as const }
    return { supported: true as const, path: await platform.pickFolder(options) }
  })
  router.handle(appGetDesktopStatus, () => platform.desktop?.status() ?? NO_DESKTOP)
  router.handle(appInstallUpdate, () => ({ restarting: platform.desktop?.installUpdate() ?? false }))
  // A link only ever proposes: the servers are added here, after the user said yes in the window.
  router.handle(appResolveDeepLink, async ({ id, accept }) => {
    const pending = platform.desktop?.takeDeepLink(id)
    if (!pending) throw new AppError('deep_link_not_pending', 'This link is no longer waiting for an answer')
    if (!accept || pending.request.kind !== 'mcp.add' || !pending.mcpServersJson)
      return { added: [], skipped: [] }
    const result = await mcp.importJson(pending.mcpServersJson)
    return { added: result.imported.map((server) => server.name), skipped: result.skipped }
  })
}
