import { homedir } from 'node:os'
import { randomUUID } from 'node:crypto'
import type {
  LearnedRuleOffer,
  RuleReplay,
  PermissionDecision,
  PermissionMode,
  PermissionRequest,
  PermissionRule,
  RuleDraft
} from '@shared/types/permission'
import { AppError } from '@shared/errors'
import type { PermissionRuleStore } from './ruleStore'
import { commandCoveredBySubRules, ruleMatches } from './ruleMatching'
import type { PromptHistory } from './promptHistory'
import { learnedRuleOffer, replayRule } from './learnedRules'

export * from './errors'
export { FilePermissionService } from './filePermissionService'
export { CommandPermissionService } from './commandPermissionService'
export { SettingsPermissionService } from './settingsPermissionService'
export { PermissionRuleStore } from './ruleStore'
export { PromptHistory } from './promptHistory'

export type GateResult =
  | {
      status: 'allow'
      /** A once-grant to consume when the tool actually runs. */ onceGrant?: string
      via: string
    }
  | { status: 'deny'; reason: string; rule?: PermissionRule }
  | { status: 'ask' }

interface Grant {
  id: string
  key: string
  once: boolean
  /** A session grant for everything this rule allows (e.g. every tool of one MCP server). */
  rule?: RuleDraft
}

/** What ToolPresenter needs from the permission side. */
export interface PermissionGate {
  evaluate(request: PermissionRequest | null, mode: PermissionMode): GateResult
  consume(sessionId: string, grantId: string): void
}

/**
 * Turns a permission need into allow / deny / ask, using deny rules (they always win), the
 * session's mode, this session's once- and session-grants and the persisted allow rules.
 * Evaluating is pure; a once-grant is spent only by `consume`, called when the tool runs.
 */
export class PermissionPresenter implements PermissionGate {
  private readonly grants = new Map<string, Grant[]>()

  constructor(
    private readonly deps: {
      rules: PermissionRuleStore
      /** The permission prompts of every chat (the tape), for learned rules and replays. */
      history?: Pick<PromptHistory, 'recent'>
      home?: string
      log?: (message: string) => void
    }
  ) {}

  private get home(): string {
    return this.deps.home ?? homedir()
  }

  evaluate(request: PermissionRequest | null, mode: PermissionMode): GateResult {
    if (!request) return { status: 'allow', via: 'no approval needed' }
    const rules = this.deps.rules.list()
    const deny = rules.find((r) => r.effect === 'deny' && ruleMatches(r, request, this.home))
    if (deny) return { status: 'deny', reason: `Denied by rule ${deny.kind}: ${deny.pattern}`, rule: deny }
    if (mode === 'full_access') {
      this.deps.log?.(`full_access allowed ${request.tool}: ${request.reason}`)
      return { status: 'allow', via: 'full_access' }
    }
    const key = requestKey(request)
    const grant = this.grants
      .get(request.sessionId)
      ?.find((g) => (g.rule ? this.sessionRuleMatches(g.rule, request) : g.key === key))
    if (grant)
      return grant.once
        ? { status: 'allow', onceGrant: grant.id, via: 'once' }
        : { status: 'allow', via: 'session' }
    // A remembered rule never allows a critical request: those are allowed once or per session only.
    const allows = request.risk === 'critical' ? [] : rules.filter((r) => r.effect === 'allow')
    const rule = allows.find((r) => ruleMatches(r, request, this.home))
    if (rule) return { status: 'allow', via: `rule ${rule.kind}: ${rule.pattern}` }
    if (commandCoveredBySubRules(allows, request)) return { status: 'allow', via: 'exec rules' }
    return { status: 'ask' }
  }

  private sessionRuleMatches(rule: RuleDraft, request: PermissionRequest): boolean {
    return ruleMatches({ ...rule, id: 'session', effect: 'allow', createdAt: 0 }, request, this.home)
  }

  consume(sessionId: string, grantId: string): void {
    const list = this.grants.get(sessionId)
    if (!list) return
    this.grants.set(
      sessionId,
      list.filter((g) => g.id !== grantId)
    )
  }

  /**
   * Records the user's answer. `once` and `session` live in memory for this session only (a
   * `session` answer with a rule allows all the rule covers, e.g. `mcp: github/*`);
   * `always` stores a rule (the request's suggested one unless `rule` overrides it).
   */
  decide(request: PermissionRequest, decision: PermissionDecision, rule?: RuleDraft): PermissionRule | null {
    if (decision === 'deny') return null
    if (decision === 'always' && request.risk === 'critical') {
      throw new AppError(
        'always_not_allowed',
        'A critical request can be allowed once or for this session, never always.'
      )
    }
    if (decision === 'always') {
      const draft = rule ?? request.suggestedRule
      if (!draft) throw new AppError('invalid_rule', `no rule can be remembered for ${request.tool}`)
      return this.deps.rules.add({ ...draft, effect: draft.effect ?? 'allow' })
    }
    const list = this.grants.get(request.sessionId) ?? []
    const scope = decision === 'session' && rule ? { rule } : {}
    list.push({ id: randomUUID(), key: requestKey(request), once: decision === 'once', ...scope })
    this.grants.set(request.sessionId, list)
    return null
  }

  clearSession(sessionId: string): void {
    this.grants.delete(sessionId)
  }

  listRules(): PermissionRule[] {
    return this.deps.rules.list()
  }

  addRule(draft: RuleDraft): PermissionRule {
    return this.deps.rules.add(draft)
  }

  revokeRule(id: string): boolean {
    return this.deps.rules.remove(id)
  }

  /** The rule an allowed prompt has earned, with its replay (learnedRules.ts); nothing is saved. */
  learnedRuleOffer(interactionId: string): LearnedRuleOffer | null {
    if (!this.deps.history) return null
    return learnedRuleOffer(interactionId, this.deps.history.recent(), this.deps.rules.list(), this.home)
  }

  /** What `rule` would have done over the recent prompts of every chat; nothing is saved. */
  replayRule(rule: RuleDraft): RuleReplay {
    const prompts = this.deps.history?.recent() ?? []
    const denyRules = this.deps.rules.list().filter((r) => r.effect === 'deny')
    return replayRule({ ...rule, effect: 'allow' }, prompts, denyRules, this.home)
  }
}

/**
 * What the user is offered: a critical request never suggests a rule to remember (no "Always
 * allow", no wildcard), whichever service built it.
 */
export function offeredRequest(request: PermissionRequest | null): PermissionRequest | null {
  if (!request || request.risk !== 'critical' || !request.suggestedRule) return request
  const { suggestedRule: _dropped, ...rest } = request
  return rest
}

/** Identity of a request for once/session grants: what is asked, not how risky it looked. */
export function requestKey(request: PermissionRequest): string {
  return JSON.stringify([
    request.type,
    request.server,
    request.type === 'mcp' ? (request.originalTool ?? request.tool) : request.tool,
    request.command?.trim() ?? null,
    request.cwd ?? null,
    [...(request.paths ?? [])].sort(),
    request.host ?? null
  ])
}
