import { permissionsAddRule, permissionsListRules, permissionsRevokeRule } from '@shared/contracts/routes/permissions.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerPermissionRoutes(router: Router, { permissions }: Pick<Presenters, 'permissions'>): void {
  router.handle(permissionsListRules, () => ({ rules: permissions.listRules() }))
  router.handle(permissionsAddRule, ({ rule }) => ({ rule: permissions.addRule(rule) }))
  router.handle(permissionsRevokeRule, ({ id }) => ({ revoked: permissions.revokeRule(id) }))
}
