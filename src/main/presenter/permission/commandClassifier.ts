import { homedir } from 'node:os'
import { basename } from 'node:path'
import { forEachChild, parse, type Command, type Redirection, type SyntaxNode, type Word } from 'unbash'
import type { CommandCategory, RiskLevel, SubCommand } from '@shared/types/permission'
import { isInside, isSensitivePath, realPathOf, resolveUserPath } from './paths'
import {
  DESTRUCTIVE_PROGRAMS, ELEVATORS, INTERPRETERS, NETWORK_PROGRAMS, READ_ONLY_PROGRAMS, WRAPPERS, WRITING_PROGRAMS,
  classifyGit, classifyPackageManager
} from './commandTables'

export interface CommandAnalysis {
  command: string
  subCommands: SubCommand[]
  /** Reasons that belong to the line, not one command: substitutions, subshells, parse errors. */
  lineReasons: string[]
  risk: RiskLevel
}

interface Scope {
  workspace: string
  cwd: string
  home: string
}

const RISK_ORDER: RiskLevel[] = ['low', 'medium', 'high', 'critical']
export const maxRisk = (a: RiskLevel, b: RiskLevel): RiskLevel => (RISK_ORDER.indexOf(a) >= RISK_ORDER.indexOf(b) ? a : b)

const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty'])
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i
/** Programs whose first positional argument is a pattern or script, not a path. */
const PATTERN_FIRST = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'sed', 'awk', 'jq', 'echo', 'printf', 'expr', 'test', '['])

/**
 * Parses a shell line with a real bash parser and classifies every simple command in it,
 * including those inside pipelines, `&&`/`;` lists, subshells and substitutions. Pure: it only
 * reads the disk to resolve symlinks.
 */
export function analyzeCommand(command: string, options: { cwd: string; workspaceDir: string; home?: string }): CommandAnalysis {
  const home = options.home ?? homedir()
  const scope: Scope = { workspace: realPathOf(options.workspaceDir), cwd: options.cwd, home }
  const subCommands: SubCommand[] = []
  const lineReasons = new Set<string>()
  if (!isInside(realPathOf(options.cwd), scope.workspace)) lineReasons.add('runs outside the workspace')
  const ast = parse(command)
  if (ast.errors?.length) lineReasons.add(`the line does not parse cleanly: ${ast.errors[0].message}`)

  const visit = (node: SyntaxNode, pipedInput: boolean): void => {
    switch (node.type) {
      case 'Command':
        subCommands.push(classifySimpleCommand(node, command, scope, pipedInput))
        break
      case 'Pipeline':
        node.commands.forEach((child, index) => visit(child, index > 0))
        return
      case 'Subshell':
        lineReasons.add('runs a subshell')
        break
      case 'CommandExpansion':
        lineReasons.add('uses command substitution')
        break
      case 'ProcessSubstitution':
        lineReasons.add('uses process substitution')
        break
      case 'Function':
        lineReasons.add('defines a shell function')
        break
      case 'Statement':
        if (node.background) lineReasons.add('runs a command in the background')
        break
    }
    forEachChild(node, (child) => visit(child, false))
  }
  visit(ast, false)

  if (subCommands.length === 0 && command.trim() !== '') lineReasons.add('no command could be recognised')
  let risk: RiskLevel = subCommands.reduce<RiskLevel>((acc, sub) => maxRisk(acc, sub.risk), 'low')
  if (lineReasons.size > 0) risk = maxRisk(risk, [...lineReasons].some((r) => r.includes('parse')) ? 'high' : 'medium')
  return { command, subCommands, lineReasons: [...lineReasons], risk }
}

function wordValue(word: Word, home: string): { value: string; dynamic: boolean } {
  const parts = word.parts ?? []
  let dynamic = false
  let value = word.value
  for (const part of parts) {
    if (part.type === 'SimpleExpansion' || part.type === 'ParameterExpansion') {
      const name = part.type === 'ParameterExpansion' ? part.parameter : part.text.slice(1)
      if (name === 'HOME') value = value.replace(part.text, home)
      else if (name !== 'PWD') dynamic = true
    } else if (part.type === 'CommandExpansion' || part.type === 'ProcessSubstitution' || part.type === 'ArithmeticExpansion') {
      dynamic = true
    } else if (part.type === 'DoubleQuoted' && part.parts.some((p) => p.type !== 'Literal')) {
      dynamic = true
    }
  }
  return { value, dynamic }
}

function classifySimpleCommand(
  node: Command,
  source: string,
  scope: Scope,
  pipedInput: boolean
): SubCommand {
  const text = source.slice(node.pos, node.end).replace(/\s+/g, ' ').trim()
  const reasons: string[] = []
  const outside = new Set<string>()
  let risk: RiskLevel = 'low'
  let category: CommandCategory = 'read_only'
  const raise = (level: RiskLevel, reason?: string): void => {
    risk = maxRisk(risk, level)
    if (reason && !reasons.includes(reason)) reasons.push(reason)
  }

  if (!node.name) {
    // Only assignments and redirects, e.g. `FOO=1` or `> file`.
    category = node.redirects.length ? 'writes' : 'read_only'
  }
  const nameInfo = node.name ? wordValue(node.name, scope.home) : { value: '', dynamic: false }
  const words = node.args.filter((a): a is Word => a.type === 'Word').map((w) => wordValue(w, scope.home))
  let args = words.map((w) => w.value)
  let program = basename(nameInfo.value)
  if (nameInfo.dynamic) {
    category = 'unknown'
    raise('high', 'the program name is computed at run time')
  }

  // Unwrap sudo/env/xargs/...: the wrapped command is what runs.
  for (let guard = 0; guard < 4; guard++) {
    if (ELEVATORS.has(program)) {
      raise('critical', `${program} runs with elevated privileges`)
    } else if (!(program in WRAPPERS)) break
    const eat = WRAPPERS[program] ?? 0
    let index = 0
    while (index < args.length && (args[index].startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[index]))) index++
    index += eat
    if (index >= args.length) {
      if (program === 'xargs') program = 'echo'
      break
    }
    program = basename(args[index])
    args = args.slice(index + 1)
  }

  const classified = classifyProgram(program, args)
  category = category === 'unknown' ? 'unknown' : classified.category
  if (classified.reason) reasons.push(classified.reason)
  raise(baseRisk(category))
  if (program === 'eval' || program === 'source' || program === '.') raise('high', `${program} runs code assembled at run time`)
  if (INTERPRETERS.has(program) && pipedInput) {
    category = 'unknown'
    raise('critical', `pipes text into ${program}, which runs it`)
  }
  if (words.some((w) => w.dynamic) && !['echo', 'printf'].includes(program)) {
    raise('medium', 'an argument is computed at run time')
  }

  // Paths named on the line: outside the workspace raises the risk.
  const positional = args.filter((a, i) => !(a.startsWith('-') && !a.includes('=')) && !(i === 0 && PATTERN_FIRST.has(program)))
  for (const raw of positional) {
    const candidate = raw.includes('=') && raw.startsWith('-') ? raw.slice(raw.indexOf('=') + 1) : raw
    checkPath(candidate, category === 'read_only' ? 'read' : 'write')
  }
  for (const redirect of node.redirects) checkRedirect(redirect)

  if (program === 'cd' && positional[0]) scope.cwd = resolveUserPath(positional[0], scope.cwd, scope.home)
  return { text, program: program || '(none)', category, risk, reasons, outsidePaths: [...outside] }

  function checkPath(raw: string, access: 'read' | 'write'): void {
    if (!raw || URL_LIKE.test(raw) || HARMLESS_TARGETS.has(raw)) return
    const looksLikePath = raw.startsWith('/') || raw.startsWith('~') || raw.startsWith('.') || raw.includes('/')
    if (!looksLikePath && access === 'read') return
    const real = realPathOf(resolveUserPath(raw, scope.cwd, scope.home))
    const sensitive = isSensitivePath(real)
    if (isInside(real, scope.workspace)) {
      if (sensitive && access === 'write') raise('high', `writes a sensitive file: ${raw}`)
      return
    }
    outside.add(real)
    const broad = real === '/' || real === scope.home || isInside(scope.workspace, real)
    if (access === 'write' && broad) raise('critical', `changes a whole top-level folder: ${raw}`)
    else if (access === 'read') raise(sensitive ? 'high' : 'medium', `reads outside the workspace: ${raw}`)
    else if (category === 'destructive') raise('critical', `deletes or changes outside the workspace: ${raw}`)
    else raise(sensitive ? 'critical' : 'high', `writes outside the workspace: ${raw}`)
  }

  function checkRedirect(redirect: Redirection): void {
    if (redirect.type !== 'Redirect' || !redirect.target) return
    const target = wordValue(redirect.target, scope.home).value
    const op = redirect.operator
    if ((op === '>&' || op === '<&') && /^\d+$|^-$/.test(target)) return
    if (HARMLESS_TARGETS.has(target)) return
    if (op === '<') {
      checkPath(target, 'read')
      return
    }
    if (category === 'read_only') category = 'writes'
    raise('medium', `redirects output to ${target}`)
    checkPath(target.includes('/') || target.startsWith('~') ? target : `./${target}`, 'write')
  }
}

function baseRisk(category: CommandCategory): RiskLevel {
  switch (category) {
    case 'read_only':
      return 'low'
    case 'writes':
    case 'unknown':
      return 'medium'
    case 'network':
    case 'destructive':
      return 'high'
  }
}

function classifyProgram(program: string, args: string[]): { category: CommandCategory; reason?: string } {
  if (program === '') return { category: 'read_only' }
  if (program === 'git') return classifyGit(args)
  const pm = classifyPackageManager(program, args)
  if (pm) return pm
  if (program === 'find') return classifyFind(args)
  if (program === 'sed') {
    return args.some((a) => a === '-i' || a.startsWith('-i') || a.startsWith('--in-place'))
      ? { category: 'writes', reason: 'sed -i edits files in place' }
      : { category: 'read_only' }
  }
  if (program === 'sort' && args.some((a) => a === '-o' || a.startsWith('--output'))) return { category: 'writes' }
  if (program === 'tail' && args.some((a) => a === '-f' || a === '-F' || a.startsWith('--follow'))) {
    return { category: 'unknown', reason: 'tail -f never ends' }
  }
  if ((program === 'less' || program === 'more') && args.length === 0) return { category: 'unknown', reason: 'interactive pager' }
  if (program === 'tar' && args[0] && /^-?[a-z]*t/.test(args[0]) && !/[xc]/.test(args[0])) return { category: 'read_only' }
  if (READ_ONLY_PROGRAMS.has(program)) return { category: 'read_only' }
  if (DESTRUCTIVE_PROGRAMS.has(program)) return { category: 'destructive', reason: `${program} deletes or stops things` }
  if (NETWORK_PROGRAMS.has(program)) {
    const writes = args.some((a) => a === '-o' || a === '-O' || a.startsWith('--output'))
    return { category: 'network', reason: `${program} uses the network${writes ? ' and writes a file' : ''}` }
  }
  if (WRITING_PROGRAMS.has(program)) return { category: 'writes' }
  if (INTERPRETERS.has(program)) return { category: 'unknown', reason: `${program} runs arbitrary code` }
  if (ELEVATORS.has(program)) return { category: 'unknown' }
  return { category: 'unknown', reason: `${program} is not a known read-only command` }
}

function classifyFind(args: string[]): { category: CommandCategory; reason?: string } {
  if (args.includes('-delete')) return { category: 'destructive', reason: 'find -delete removes files' }
  if (args.some((a) => ['-exec', '-execdir', '-ok', '-okdir'].includes(a))) {
    return { category: 'unknown', reason: 'find -exec runs another command' }
  }
  if (args.some((a) => ['-fprint', '-fprint0', '-fprintf', '-fls'].includes(a))) return { category: 'writes', reason: 'find writes a file' }
  return { category: 'read_only' }
}
