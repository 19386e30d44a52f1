import { configGetSettings, configUpdateSettings } from '@shared/contracts/routes/config.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerConfigRoutes(router: Router, { config }: Pick<Presenters, 'config'>): void {
  router.handle(configGetSettings, () => ({ settings: config.getSettings() }))
  router.handle(configUpdateSettings, ({ patch }) => ({ settings: config.updateSettings(patch) }))
}
