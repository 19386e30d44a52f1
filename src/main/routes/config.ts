import { configGetSettings, configUpdateSettings } from '@shared/contracts/routes/config.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerConfigRoutes(
  router: Router,
  { config, workspaces }: Pick<Presenters, 'config' | 'workspaces'>
): void {
  router.handle(configGetSettings, () => ({ settings: config.getSettings() }))
  router.handle(configUpdateSettings, ({ patch }) => {
    // The default workspace must be a folder that exists and is not the app's own data folder.
    const defaultWorkspaceDir = patch.defaultWorkspaceDir?.trim()
      ? workspaces.validate(patch.defaultWorkspaceDir)
      : patch.defaultWorkspaceDir?.trim()
    return {
      settings: config.updateSettings(
        defaultWorkspaceDir === undefined ? patch : { ...patch, defaultWorkspaceDir }
      )
    }
  })
}
