import { z } from 'zod'
import { defineRoute } from '../define'
import { PermissionRule, RuleDraft, SandboxStatus } from '../../types/permission'

export const permissionsListRules = defineRoute({
  name: 'permissions.listRules',
  input: z.object({}).strict(),
  output: z.object({ rules: z.array(PermissionRule) })
})

export const permissionsAddRule = defineRoute({
  name: 'permissions.addRule',
  input: z.object({ rule: RuleDraft }).strict(),
  output: z.object({ rule: PermissionRule })
})

export const permissionsRevokeRule = defineRoute({
  name: 'permissions.revokeRule',
  input: z.object({ id: z.string().min(1) }).strict(),
  output: z.object({ revoked: z.boolean() })
})

/** Which sandbox guards unasked commands here, or why there is none. */
export const permissionsSandboxStatus = defineRoute({
  name: 'permissions.sandboxStatus',
  input: z.object({}).strict(),
  output: z.object({ sandbox: SandboxStatus })
})
