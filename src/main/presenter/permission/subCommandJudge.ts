import { basename } from 'node:path'
import type { Command, Redirection, Word } from 'unbash'
import type { CommandCategory, RiskLevel, SubCommand } from '@shared/types/permission'
import { isInside, isSensitivePath, realPathOf, resolveUserPath } from './paths'
import {
  DESTRUCTIVE_PROGRAMS, ELEVATORS, INTERPRETERS, NETWORK_PROGRAMS, READ_ONLY_PROGRAMS, WRAPPERS, WRITING_PROGRAMS,
  classifyGit, classifyPackageManager, classifySed,
  type Classified
} from './commandTables'
import { ReasonList, reasonOf, type Reason } from './reasonText'

export interface Scope {
  /** Real path of the workspace. */
  workspace: string
  /** Follows `cd` from one sub-command to the next. */
  cwd: string
  home: string
}

const RISK_ORDER: RiskLevel[] = ['low', 'medium', 'high', 'critical']
export const maxRisk = (a: RiskLevel, b: RiskLevel): RiskLevel => (RISK_ORDER.indexOf(a) >= RISK_ORDER.indexOf(b) ? a : b)

const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty'])
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i
/** Programs whose first positional argument is a pattern or script, not a path. */
const PATTERN_FIRST = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'sed', 'awk', 'jq', 'echo', 'printf', 'expr', 'test', '['])
/** Variables that change which program runs or what it loads. */
const LOADER_VARIABLES = /^(PATH|LD_PRELOAD|LD_LIBRARY_PATH|DYLD_\w+|BASH_ENV|ENV|PROMPT_COMMAND|NODE_OPTIONS|PYTHONPATH|PYTHONSTARTUP|GIT_SSH_COMMAND|GIT_EXEC_PATH)$/

/** A word's value with `$HOME` expanded, and whether anything else is computed at run time. */
export function wordValue(word: Word, home: string): { value: string; dynamic: boolean } {
  let dynamic = false
  let value = word.value
  for (const part of word.parts ?? []) {
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

/** Accumulates the category, risk and reasons of one sub-command. */
export class SubCommandJudge {
  category: CommandCategory = 'read_only'
  private risk: RiskLevel = 'low'
  private readonly reasons = new ReasonList()
  private readonly outside = new Set<string>()

  constructor(
    private readonly scope: Scope,
    private readonly text: string,
    private program = ''
  ) {}

  raise(level: RiskLevel, reason?: Reason): void {
    this.risk = maxRisk(this.risk, level)
    if (reason) this.reasons.add(reason)
  }

  result(): SubCommand {
    return {
      text: this.text,
      program: this.program || '(none)',
      category: this.category,
      risk: this.risk,
      reasons: this.reasons.texts,
      reasonCodes: this.reasons.codes,
      outsidePaths: [...this.outside]
    }
  }

  /** Classifies a simple command: program, wrappers, arguments, paths and redirects. */
  judgeCommand(node: Command, pipedInput: boolean): SubCommand {
    const { home } = this.scope
    const name = node.name ? wordValue(node.name, home) : { value: '', dynamic: false }
    const words = node.args.filter((a): a is Word => a.type === 'Word').map((w) => wordValue(w, home))
    for (const prefix of node.prefix) {
      if (prefix.type === 'Assignment' && LOADER_VARIABLES.test(prefix.name)) this.raise('high', reasonOf('loader_variable', { name: prefix.name }))
    }
    const { program, args } = this.unwrap(basename(name.value), words.map((w) => w.value))
    this.program = program
    const classified = classifyProgram(program, args)
    this.category = name.dynamic ? 'unknown' : classified.category
    if (name.dynamic) this.raise('high', reasonOf('dynamic_program'))
    if (classified.reason) this.raise('low', classified.reason)
    this.raise(baseRisk(this.category))
    if (program === 'eval' || program === 'source' || program === '.') this.raise('high', reasonOf('eval_code', { program }))
    if (INTERPRETERS.has(program) && pipedInput) {
      this.category = 'unknown'
      this.raise('critical', reasonOf('pipe_to_interpreter', { program }))
    }
    if (words.some((w) => w.dynamic) && program !== 'echo' && program !== 'printf') this.raise('medium', reasonOf('dynamic_argument'))

    const positional = args.filter((a, i) => !(a.startsWith('-') && !a.includes('=')) && !(i === 0 && PATTERN_FIRST.has(program)))
    for (const raw of positional) {
      const candidate = raw.startsWith('-') && raw.includes('=') ? raw.slice(raw.indexOf('=') + 1) : raw
      this.checkPath(candidate, this.category === 'read_only' ? 'read' : 'write')
    }
    for (const redirect of node.redirects) this.checkRedirect(redirect)
    if (program === 'cd') this.followCd(positional[0])
    return this.result()
  }

  /** Later relative paths resolve from where `cd` went; `cd` alone goes home, `cd -` is unknown. */
  private followCd(target: string | undefined): void {
    if (target === '-') {
      this.raise('medium', reasonOf('cd_previous'))
      this.scope.cwd = '/'
      return
    }
    this.scope.cwd = resolveUserPath(target ?? '~', this.scope.cwd, this.scope.home)
    if (target === undefined) this.checkPath('~', 'read')
  }

  /** `sudo`, `env`, `xargs`, `timeout 5`, ...: the wrapped command is what runs. */
  private unwrap(program: string, args: string[]): { program: string; args: string[] } {
    for (let depth = 0; depth < 4; depth++) {
      if (ELEVATORS.has(program)) this.raise('critical', reasonOf('elevated', { program }))
      else if (!(program in WRAPPERS)) break
      let index = 0
      while (index < args.length && (args[index].startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[index]))) index++
      index += WRAPPERS[program] ?? 0
      if (index >= args.length) return { program: program === 'xargs' ? 'echo' : program, args: [] }
      program = basename(args[index])
      args = args.slice(index + 1)
    }
    return { program, args }
  }

  checkPath(raw: string, access: 'read' | 'write'): void {
    if (!raw || URL_LIKE.test(raw) || HARMLESS_TARGETS.has(raw)) return
    const looksLikePath = raw.startsWith('/') || raw.startsWith('~') || raw.startsWith('.') || raw.includes('/')
    if (!looksLikePath && access === 'read') return
    const { workspace, home, cwd } = this.scope
    const real = realPathOf(resolveUserPath(raw, cwd, home))
    const sensitive = isSensitivePath(real)
    if (isInside(real, workspace)) {
      if (sensitive && access === 'write') this.raise('high', reasonOf('sensitive_write', { path: raw }))
      return
    }
    this.outside.add(real)
    const broad = real === '/' || real === home || isInside(workspace, real)
    if (access === 'write' && broad) this.raise('critical', reasonOf('broad_write', { path: raw }))
    else if (access === 'read') this.raise(sensitive ? 'high' : 'medium', reasonOf('outside_read', { path: raw }))
    else if (this.category === 'destructive') this.raise('critical', reasonOf('outside_destructive', { path: raw }))
    else this.raise(sensitive ? 'critical' : 'high', reasonOf('outside_write', { path: raw }))
  }

  checkRedirect(redirect: Redirection): void {
    if (redirect.type !== 'Redirect' || !redirect.target) return
    const target = wordValue(redirect.target, this.scope.home).value
    const op = redirect.operator
    if ((op === '>&' || op === '<&') && /^\d+$|^-$/.test(target)) return
    if (HARMLESS_TARGETS.has(target)) return
    if (op === '<') return this.checkPath(target, 'read')
    if (this.category === 'read_only') this.category = 'writes'
    this.raise('medium', reasonOf('redirect_output', { target }))
    this.checkPath(target.includes('/') || target.startsWith('~') ? target : `./${target}`, 'write')
  }
}

function baseRisk(category: CommandCategory): RiskLevel {
  if (category === 'read_only') return 'low'
  return category === 'network' || category === 'destructive' ? 'high' : 'medium'
}

function classifyProgram(program: string, args: string[]): Classified {
  if (program === '') return { category: 'read_only' }
  if (program === 'git') return classifyGit(args)
  const pm = classifyPackageManager(program, args)
  if (pm) return pm
  if (program === 'find') return classifyFind(args)
  if (program === 'sed') return classifySed(args)
  if (program === 'sort' && args.some((a) => a === '-o' || a.startsWith('--output'))) return { category: 'writes' }
  if (program === 'tail' && args.some((a) => a === '-f' || a === '-F' || a.startsWith('--follow'))) {
    return { category: 'unknown', reason: reasonOf('tail_follow') }
  }
  if ((program === 'less' || program === 'more') && args.length === 0) return { category: 'unknown', reason: reasonOf('interactive_pager') }
  if (program === 'tar' && args[0] && /^-?[a-z]*t/.test(args[0]) && !/[xc]/.test(args[0])) return { category: 'read_only' }
  if (READ_ONLY_PROGRAMS.has(program)) return { category: 'read_only' }
  if (DESTRUCTIVE_PROGRAMS.has(program)) return { category: 'destructive', reason: reasonOf('destructive_program', { program }) }
  if (NETWORK_PROGRAMS.has(program)) {
    const writes = args.some((a) => a === '-o' || a === '-O' || a.startsWith('--output'))
    return { category: 'network', reason: reasonOf(writes ? 'network_program_writes' : 'network_program', { program }) }
  }
  if (WRITING_PROGRAMS.has(program)) return { category: 'writes' }
  if (INTERPRETERS.has(program)) return { category: 'unknown', reason: reasonOf('interpreter', { program }) }
  return { category: 'unknown', reason: reasonOf('unknown_program', { program }) }
}

function classifyFind(args: string[]): Classified {
  if (args.includes('-delete')) return { category: 'destructive', reason: reasonOf('find_delete') }
  if (args.some((a) => ['-exec', '-execdir', '-ok', '-okdir'].includes(a))) {
    return { category: 'unknown', reason: reasonOf('find_exec') }
  }
  if (args.some((a) => ['-fprint', '-fprint0', '-fprintf', '-fls'].includes(a))) return { category: 'writes', reason: reasonOf('find_writes') }
  return { category: 'read_only' }
}
