import {
  appGetDesktopStatus,
  appGetInfo,
  appChooseFolder,
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

const NOT_PICKED = { path: null, token: null }

export function registerAppRoutes(
  router: Router,
  { platform, mcp, storage, pathGrants }: Pick<Presenters, 'platform' | 'mcp' | 'storage' | 'pathGrants'>
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
  // What the picker answers is the only way a folder the page names becomes one a route accepts.
  router.handle(appPickFolder, async (options, { clientId }) => {
    if (!platform.pickFolder) return { supported: false as const }
    const path = await platform.pickFolder(options)
    return { supported: true as const, ...(path ? pathGrants.issue(path, clientId) : NOT_PICKED) }
  })
  router.handle(appChooseFolder, async ({ path, title }, { clientId }) => {
    // The desktop app has a dialog to confirm the typed folder in; the headless host has only the page.
    const chosen = platform.pickFolder ? await platform.pickFolder({ title, defaultPath: path }) : path
    return chosen ? pathGrants.issue(chosen, clientId) : NOT_PICKED
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
