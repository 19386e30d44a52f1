import picomatch from 'picomatch'
import type { PermissionRequest, PermissionRule } from '@shared/types/permission'
import { expandHome, isInside } from './paths'

const GLOB_CHARS = /[*?[\]{}]/

/** `*` matches anything; everything else is literal. Case-sensitive, anchored. */
export function wildcardMatch(pattern: string, text: string): boolean {
  const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${escaped.join('.*')}$`, 's').test(text)
}

/** A path rule: a glob (`~/notes/**`), or a plain path that covers itself and everything below. */
export function pathRuleMatches(pattern: string, path: string, home: string): boolean {
  const expanded = expandHome(pattern.trim(), home)
  if (!GLOB_CHARS.test(expanded)) return isInside(path, expanded.replace(/[\\/]+$/, '') || '/')
  return picomatch(expanded, { dot: true })(path)
}

/**
 * An allow rule covers a line only when written out exactly (no wildcard): `npm test*` must
 * never approve `npm test; rm -rf ~`. Wildcard allow rules work per sub-command instead
 * (commandCoveredBySubRules). A deny rule matching the line or any sub-command wins.
 */
function commandMatches(rule: PermissionRule, request: PermissionRequest): boolean {
  const command = (request.command ?? '').replace(/\s+/g, ' ').trim()
  if (rule.effect === 'allow')
    return !rule.pattern.includes('*') && rule.pattern.replace(/\s+/g, ' ').trim() === command
  return (
    wildcardMatch(rule.pattern, command) ||
    (request.subCommands ?? []).some((s) => wildcardMatch(rule.pattern, s.text))
  )
}

/**
 * Whether `rule` speaks about `request`. For an allow rule the whole request must be covered;
 * for a deny rule touching any part is enough (deny wins).
 */
export function ruleMatches(rule: PermissionRule, request: PermissionRequest, home: string): boolean {
  switch (request.type) {
    case 'read':
    case 'write': {
      // A write rule also allows reading the same place; a read rule never allows writing.
      const applies =
        rule.kind === request.type ||
        (request.type === 'read' && rule.kind === 'write' && rule.effect === 'allow')
      const denyAlsoReads = rule.effect === 'deny' && (rule.kind === 'read' || rule.kind === 'write')
      if (!applies && !denyAlsoReads) return false
      const paths = request.paths ?? []
      if (paths.length === 0) return false
      const test = (p: string): boolean => pathRuleMatches(rule.pattern, p, home)
      return rule.effect === 'deny' ? paths.some(test) : paths.every(test)
    }
    case 'command':
      return rule.kind === 'exec' && commandMatches(rule, request)
    case 'mcp':
      return (
        rule.kind === 'mcp' &&
        wildcardMatch(rule.pattern, `${request.server}/${request.originalTool ?? request.tool}`)
      )
    case 'settings':
      return rule.kind === 'settings' && wildcardMatch(rule.pattern, request.tool)
    case 'network':
      return rule.kind === 'network' && !!request.host && hostRuleMatches(rule.pattern, request.host)
  }
}

/**
 * Allow rules for a command also work sub-command by sub-command: `git status && npm test` is
 * covered when `npm test*` is allowed and `git status` needs nothing anyway. Lines with
 * substitutions or subshells need a rule for the whole line.
 */
export function commandCoveredBySubRules(rules: PermissionRule[], request: PermissionRequest): boolean {
  if (request.type !== 'command' || !request.subCommands?.length) return false
  if (request.lineReasons?.length) return false
  const coveredByRule = (text: string) =>
    rules.some((r) => r.kind === 'exec' && r.effect === 'allow' && wildcardMatch(r.pattern, text))
  const needing = request.subCommands.filter((sub) => sub.risk !== 'low')
  // Rules must cover something: a line asked for as a whole (to run outside the sandbox) is not allowed by no rules at all.
  return needing.length > 0 && needing.every((sub) => coveredByRule(sub.text))
}

/**
 * A network rule names a host: `example.com` covers that host only, `*.example.com` its
 * subdomains, `*` every host. Exact by default, so a rule the model steered the user into
 * (fetching `http://com/`) cannot cover a whole top-level domain. Case-insensitive.
 */
export function hostRuleMatches(pattern: string, host: string): boolean {
  const p = pattern.trim().toLowerCase().replace(/\.$/, '')
  const h = host.trim().toLowerCase().replace(/\.$/, '')
  if (!p || !h) return false
  if (p === '*') return true
  if (p.startsWith('*.')) return h.endsWith(p.slice(1)) && h.length > p.length - 1
  return h === p
}
