import { dirname } from 'node:path'
import type {
  LearnedRuleOffer,
  PermissionRequest,
  PermissionRule,
  RecordedPromptView,
  RuleDraft,
  RuleReplay
} from '@shared/types/permission'
import { commandCoveredBySubRules, ruleMatches } from './ruleMatching'
import type { RecordedPrompt } from './promptHistory'

/** A kind of request is offered a rule once the user allowed it this many times. */
export const APPROVALS_FOR_OFFER = 3
/** A replay lists at most this many of the prompts the user denied. */
const MAX_DENIED_LISTED = 20

/** File reasons a rule may be learned for: outside the workspace, and nothing else (never protected paths, secrets or app data). */
const LEARNABLE_FILE_REASONS = new Set(['outside_workspace_read', 'outside_workspace_write'])
/** Command kinds a rule may be learned for; read-only (sensitive reads) and destructive ones never. */
const LEARNABLE_COMMAND_CATEGORIES = new Set(['writes', 'network', 'unknown'])
/** A program named plainly (a word or a relative/absolute path), with nothing a pattern would read as a wildcard. */
const PLAIN_PROGRAM = /^[\w./+-]+$/
const WILDCARD = /[*?[\]{}]/
/** Hosts, MCP names and paths: literal text only. */
const LITERAL = /^[^*?[\]{}\s]+$/

/**
 * What kind of request this is, for counting approvals: a key shared by requests a single
 * rule could allow, or null when no rule should ever be learned for it (critical requests,
 * protected paths and secrets, destructive or read-only commands, substitutions, subshells).
 * This is an allowlist: every case not named here learns nothing.
 */
export function approvalKind(request: PermissionRequest): string | null {
  if (request.risk === 'critical') return null
  switch (request.type) {
    case 'command': {
      const asking = askingSubCommand(request)
      if (!asking) return null
      const tokens = asking.text.trim().split(/\s+/)
      // Program and its first word: `git status`, `npm run` (never a rule over a program's every use).
      return tokens.length >= 2 ? `exec\u0000${tokens[0]}\u0000${tokens[1]}` : null
    }
    case 'read':
    case 'write': {
      const paths = request.paths ?? []
      if (paths.length === 0 || !paths.every((p) => p.startsWith('/') && LITERAL.test(p))) return null
      const codes = request.reasonCodes ?? []
      if (codes.length === 0 || !codes.every((c) => LEARNABLE_FILE_REASONS.has(c.code))) return null
      const dirs = new Set(paths.map((p) => dirname(p)))
      if (dirs.size !== 1) return null
      const [dir] = dirs
      // A whole top-level folder (/, /etc, /home) is too wide to learn.
      if (dir.split('/').filter(Boolean).length < 2) return null
      return `${request.type}\u0000${dir}`
    }
    case 'network':
      return request.host && LITERAL.test(request.host) ? `network\u0000${request.host}` : null
    case 'mcp': {
      const name = `${request.server}/${request.originalTool ?? request.tool}`
      return LITERAL.test(name) ? `mcp\u0000${name}` : null
    }
    default:
      // Settings changes are the user's to make each time.
      return null
  }
}

/** The one sub-command of a line that asks, when the line may be learned at all. */
function askingSubCommand(request: PermissionRequest) {
  if (request.lineReasons?.length) return null
  const asking = (request.subCommands ?? []).filter((s) => s.risk !== 'low')
  if (asking.length !== 1) return null
  const [sub] = asking
  if (sub.risk === 'critical' || !LEARNABLE_COMMAND_CATEGORIES.has(sub.category)) return null
  if (sub.outsidePaths.length > 0) return null
  const program = sub.text.trim().split(/\s+/)[0]
  if (!PLAIN_PROGRAM.test(program) || WILDCARD.test(sub.text)) return null
  return sub
}

/**
 * The narrowest rule that allows every one of `approved` (requests of one approval kind): the
 * exact command or a common prefix of whole words followed by ` *` (at least the program and
 * its first word), the one path or its folder's direct files (`dir/*`), the host, the
 * `server/tool`. Null when no such rule covers them all.
 */
export function learnRule(approved: PermissionRequest[], home: string): RuleDraft | null {
  if (approved.length === 0) return null
  const kind = approvalKind(approved[0])
  if (!kind || !approved.every((r) => approvalKind(r) === kind)) return null
  const first = approved[0]
  let draft: RuleDraft
  switch (first.type) {
    case 'command': {
      const lines = approved.map((r) => askingSubCommand(r)!.text.trim().split(/\s+/))
      const common: string[] = []
      for (let i = 0; lines.every((tokens) => i < tokens.length && tokens[i] === lines[0][i]); i++)
        common.push(lines[0][i])
      const prefix = common.join(' ')
      if (lines.every((tokens) => tokens.length === common.length)) draft = rule('exec', prefix)
      else if (lines.every((tokens) => tokens.length > common.length) && common.length >= 2)
        draft = rule('exec', `${prefix} *`)
      else return null
      break
    }
    case 'read':
    case 'write': {
      const paths = new Set(approved.flatMap((r) => r.paths ?? []))
      const [only] = paths
      const dir = dirname(only)
      // The home folder's own files (dotfiles, profiles) are learned one by one, never as a folder.
      if (paths.size > 1 && (dir === home || home.startsWith(`${dir}/`))) return null
      draft = rule(first.type, paths.size === 1 ? only : `${dir}/*`)
      break
    }
    case 'network':
      draft = rule('network', first.host!)
      break
    case 'mcp':
      draft = rule('mcp', `${first.server}/${first.originalTool ?? first.tool}`)
      break
    default:
      return null
  }
  // Checked with the real matcher: a rule that would not allow what was approved is not offered.
  return approved.every((r) => ruleAllows(draft, r, home)) ? draft : null
}

function rule(kind: RuleDraft['kind'], pattern: string): RuleDraft {
  return { kind, pattern, effect: 'allow' }
}

/** Whether the allow rule `draft` would let `request` through (never a critical one). */
export function ruleAllows(draft: RuleDraft, request: PermissionRequest, home: string): boolean {
  if (request.risk === 'critical') return false
  const asRule: PermissionRule = { ...draft, effect: 'allow', id: 'replay', createdAt: 0 }
  return ruleMatches(asRule, request, home) || commandCoveredBySubRules([asRule], request)
}

/**
 * What `draft` would have done over `prompts` (newest first): how many it would have allowed
 * without asking, and which of those the user denied. A deny rule in force still wins.
 */
export function replayRule(
  draft: RuleDraft,
  prompts: readonly RecordedPrompt[],
  denyRules: readonly PermissionRule[],
  home: string
): RuleReplay {
  let wouldAllow = 0
  let approvedAndAllowed = 0
  const deniedButAllowed: RecordedPromptView[] = []
  for (const prompt of prompts) {
    if (!ruleAllows(draft, prompt.request, home)) continue
    if (denyRules.some((d) => ruleMatches(d, prompt.request, home))) continue
    wouldAllow++
    if (prompt.outcome === 'allowed') approvedAndAllowed++
    if (prompt.outcome === 'denied' && deniedButAllowed.length < MAX_DENIED_LISTED)
      deniedButAllowed.push(promptView(prompt))
  }
  return { rule: draft, considered: prompts.length, wouldAllow, deniedButAllowed, approvedAndAllowed }
}

/**
 * The rule the prompt `interactionId` has earned: it was allowed (not already "always"), and its
 * kind was allowed at least APPROVALS_FOR_OFFER times in `prompts`; no allow rule of the same
 * pattern is stored yet. With its replay over the same prompts.
 */
export function learnedRuleOffer(
  interactionId: string,
  prompts: readonly RecordedPrompt[],
  rules: readonly PermissionRule[],
  home: string
): LearnedRuleOffer | null {
  const target = prompts.find((p) => p.interactionId === interactionId)
  if (!target || target.outcome !== 'allowed') return null
  if (target.answer === 'allow_always' || target.answer === 'allow_server_always') return null
  const kind = approvalKind(target.request)
  if (!kind) return null
  const approved = prompts.filter((p) => p.outcome === 'allowed' && approvalKind(p.request) === kind)
  if (approved.length < APPROVALS_FOR_OFFER) return null
  const draft = learnRule(
    approved.map((p) => p.request),
    home
  )
  if (!draft) return null
  if (rules.some((r) => r.effect === 'allow' && r.kind === draft.kind && r.pattern === draft.pattern))
    return null
  const denyRules = rules.filter((r) => r.effect === 'deny')
  return { rule: draft, approvals: approved.length, replay: replayRule(draft, prompts, denyRules, home) }
}

function promptView(prompt: RecordedPrompt): RecordedPromptView {
  const r = prompt.request
  const subject =
    r.type === 'command'
      ? (r.command ?? '')
      : r.type === 'network'
        ? (r.host ?? '')
        : r.type === 'mcp'
          ? `${r.server}/${r.originalTool ?? r.tool}`
          : (r.paths ?? []).join(', ')
  return {
    interactionId: prompt.interactionId,
    sessionId: prompt.sessionId,
    sessionTitle: prompt.sessionTitle,
    at: prompt.at,
    type: r.type,
    tool: r.tool,
    subject: subject.slice(0, 500)
  }
}
