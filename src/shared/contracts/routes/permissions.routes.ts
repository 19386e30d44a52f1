import { z } from 'zod'
import { defineRoute } from '../define'
import {
  LearnedRuleOffer,
  PermissionRule,
  RuleDraft,
  RuleReplay,
  SandboxStatus
} from '../../types/permission'

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

/**
 * After the user allowed a request: the rule this kind of request has earned (allowed at least
 * three times, never broader than those approvals) with what it would have done over the
 * recent prompts of every chat; null when there is none to offer. Nothing is saved.
 */
export const permissionsLearnedRuleOffer = defineRoute({
  name: 'permissions.learnedRuleOffer',
  input: z.object({ interactionId: z.string().min(1).max(200) }).strict(),
  output: z.object({ offer: LearnedRuleOffer.nullable() })
})

/** What a rule would have done over the recent permission prompts of every chat (nothing is saved). */
export const permissionsReplayRule = defineRoute({
  name: 'permissions.replayRule',
  input: z.object({ rule: RuleDraft }).strict(),
  output: z.object({ replay: RuleReplay })
})
