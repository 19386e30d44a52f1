import { configGetSettings, configUpdateSettings } from '@shared/contracts/routes/config.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerConfigRoutes(
  router: Router,
  { config, pathGrants }: Pick<Presenters, 'config' | 'pathGrants'>
): void {
  router.handle(configGetSettings, () => ({ settings: config.getSettings() }))
  router.handle(configUpdateSettings, ({ patch }, { clientId }) => {
    const current = config.getSettings()
    const picked = { ...patch }
    // A folder is a pick token, '' (none) or the value already set; the default workspace may
    // also be a folder a chat already works in.
    for (const key of ['defaultWorkspaceDir', 'backupFolder'] as const) {
      const value = patch[key]?.trim()
      if (!value || value === current[key]) continue
      picked[key] = pathGrants.folderFrom(value, clientId, { known: key === 'defaultWorkspaceDir' })
    }
    return { settings: config.updateSettings(picked) }
  })
}
