import {
  networkGetSettings,
  networkTestProxy,
  networkUpdateSettings
} from '@shared/contracts/routes/network.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerNetworkRoutes(router: Router, { network }: Pick<Presenters, 'network'>): void {
  router.handle(networkGetSettings, async () => ({ settings: await network.view() }))
  router.handle(networkUpdateSettings, async ({ patch }) => ({ settings: await network.update(patch) }))
  router.handle(networkTestProxy, async ({ patch, url }) => ({ result: await network.test(patch, url) }))
}
