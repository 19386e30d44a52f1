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

/** Route inputs leave as plain data: Vue proxies cannot cross Electron's structured clone. */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}

/** The remembered allow/deny rules. The default mode for new sessions lives in the settings store. */
export const usePermissionsStore = defineStore('permissions', () => {
  const rules = ref<PermissionRule[]>([])
  const sandbox = ref<SandboxStatus | null>(null)
  const error = ref<string | null>(null)
  const loaded = ref(false)

  async function load(): Promise<void> {
    try {
      const status = useBridge()
        .call(permissionsSandboxStatus, {})
        .then((result) => (sandbox.value = result.sandbox))
        .catch(() => (sandbox.value = null)) // the rules still show without it
      rules.value = (await useBridge().call(permissionsListRules, {})).rules
      await status
      error.value = null
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e)
    } finally {
      loaded.value = true
    }
  }

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
