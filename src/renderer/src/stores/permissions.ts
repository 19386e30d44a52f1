import { defineStore } from 'pinia'
import { ref } from 'vue'
import {
  permissionsAddRule,
  permissionsListRules,
  permissionsRevokeRule,
  permissionsSandboxStatus
} from '@shared/contracts/routes/permissions.routes'
import type { PermissionRule, RuleDraft, SandboxStatus } from '@shared/types/permission'
import { useBridge } from '@renderer/api/bridge'
import { useLoadState } from './lib/loadState'
import { plain } from './lib/plain'

/** The remembered allow/deny rules. The default mode for new sessions lives in the settings store. */
export const usePermissionsStore = defineStore('permissions', () => {
  const rules = ref<PermissionRule[]>([])
  const sandbox = ref<SandboxStatus | null>(null)
  const { error, loaded, track } = useLoadState()

  const load = () =>
    track(async () => {
      const status = useBridge()
        .call(permissionsSandboxStatus, {})
        .then((result) => (sandbox.value = result.sandbox))
        .catch(() => (sandbox.value = null)) // the rules still show without it
      rules.value = (await useBridge().call(permissionsListRules, {})).rules
      await status
    })

  async function add(draft: RuleDraft): Promise<PermissionRule> {
    const { rule } = await useBridge().call(permissionsAddRule, plain({ rule: draft }))
    rules.value = [...rules.value.filter((r) => r.id !== rule.id), rule]
    return rule
  }

  async function revoke(id: string): Promise<void> {
    await useBridge().call(permissionsRevokeRule, plain({ id }))
    rules.value = rules.value.filter((r) => r.id !== id)
  }

  return { rules, sandbox, error, loaded, load, add, revoke }
})
