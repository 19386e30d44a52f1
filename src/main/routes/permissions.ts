import {
  permissionsAddRule,
  permissionsLearnedRuleOffer,
  permissionsListRules,
  permissionsReplayRule,
  permissionsRevokeRule,
  permissionsSandboxStatus
} from '@shared/contracts/routes/permissions.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerPermissionRoutes(
  router: Router,
  { permissions, sandbox }: Pick<Presenters, 'permissions' | 'sandbox'>
): void {
  router.handle(permissionsListRules, () => ({ rules: permissions.listRules() }))
  router.handle(permissionsAddRule, ({ rule }) => ({ rule: permissions.addRule(rule) }))
  router.handle(permissionsRevokeRule, ({ id }) => ({ revoked: permissions.revokeRule(id) }))
  router.handle(permissionsSandboxStatus, async () => ({ sandbox: await sandbox.status() }))
  router.handle(permissionsLearnedRuleOffer, ({ interactionId }) => ({
    offer: permissions.learnedRuleOffer(interactionId)
  }))
  router.handle(permissionsReplayRule, ({ rule }) => ({ replay: permissions.replayRule(rule) }))
}
