import { basename, resolve } from 'node:path'
import type { Assignment, Command, Redirection, Word } from 'unbash'
import type { CommandCategory, RiskLevel, SubCommand } from '@shared/types/permission'
import { appDataAccess, type AppDataBoundary } from './boundary'
import {
  DESTRUCTIVE_PROGRAMS,
  INTERPRETERS,
  NETWORK_PROGRAMS,
  WRITING_PROGRAMS,
  classifyPackageManager,
  type Classified
} from './commandTables'
import { repositoryRootOf, useOfGit } from './gitRules'
import type { Arg } from './optionParser'
import { expandHome, isInside, isSensitivePath } from './paths'
import type { ProgramUse } from './programUse'
import { protectedReason, protectedWriteOf } from './protectedPaths'
import { useOfReadOnlyProgram } from './readOnlyPrograms'
import { ReasonList, reasonOf, type Reason } from './reasonText'
import { DECLARING_BUILTINS, changesWhatRuns, dumpsEnvironment } from './shellEnvironment'
import { physicalPathOf } from './shellPaths'
import { isSecretVariableName } from './secretVariables'
import { expandWord, type ShellState } from './wordExpansion'
import { unwrap } from './wrappers'

export interface Scope {
  /** Real path of the workspace. */
  workspace: string
  /** The shell's working folder as `$PWD` has it (logical); follows `cd` from one sub-command to the next. */
  cwd: string
  /** `$OLDPWD`, once a `cd` set it. */
  oldCwd?: string
  home: string
  appData?: AppDataBoundary
}

/** What a line needs that the OS sandbox does not give: in `sandboxed` mode these still ask. */
export type SandboxNeed =
  'network' | 'write_outside' | 'write_protected' | 'app_data' | 'elevation' | 'sensitive_read'

const RISK_ORDER: RiskLevel[] = ['low', 'medium', 'high', 'critical']
export const maxRisk = (a: RiskLevel, b: RiskLevel): RiskLevel =>
  RISK_ORDER.indexOf(a) >= RISK_ORDER.indexOf(b) ? a : b
const CATEGORY_ORDER: CommandCategory[] = ['read_only', 'writes', 'unknown', 'network', 'destructive']
const strongest = (a: CommandCategory, b: CommandCategory): CommandCategory =>
  CATEGORY_ORDER.indexOf(a) >= CATEGORY_ORDER.indexOf(b) ? a : b

const HARMLESS_TARGETS = new Set([
  '/dev/null',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/tty',
  '/dev/zero',
  '/dev/urandom',
  '/dev/random',
  '-'
])
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i
const SYSTEM_BIN = /^\/(usr\/(local\/)?)?s?bin\/[^/]+$|^\/opt\/homebrew\/bin\/[^/]+$/
/** Writing programs whose leading operands are read (copied or linked from), the last one written. */
const COPYING = new Set(['cp', 'install', 'ln'])

type Access = 'read' | 'write'

/** Accumulates the category, risk, reasons and sandbox needs of one sub-command. */
export class SubCommandJudge {
  category: CommandCategory = 'read_only'
  readonly needs = new Set<SandboxNeed>()
  private risk: RiskLevel = 'low'
  private readonly reasons = new ReasonList()
  private readonly outside = new Set<string>()
  /** Where this sub-command's own path arguments resolve (moved by `env -C`, `git -C`). */
  private cwd: string

  constructor(
    private readonly scope: Scope,
    private readonly text: string,
    private program = ''
  ) {
    this.cwd = scope.cwd
  }

  raise(level: RiskLevel, reason?: Reason, category?: CommandCategory): void {
    this.risk = maxRisk(this.risk, level)
    if (reason) this.reasons.add(reason)
    if (category) this.category = strongest(this.category, category)
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

  private get shell(): ShellState {
    return { home: this.scope.home, cwd: this.scope.cwd, oldCwd: this.scope.oldCwd }
  }

  /**
   * The words bash would pass for `word`, with run-time parts flagged. A glob match is a read
   * whatever the program does with it: the shell listed its folder (`echo ~/.ssh/*` names keys).
   */
  expand(word: Word): Arg[] {
    const { args, reasons } = expandWord(word, this.shell)
    for (const reason of reasons) this.raise('medium', reason, 'unknown')
    for (const arg of args) if (arg.globbed) this.checkPath(arg, 'read')
    return args
  }

  /** Classifies a simple command: program, wrappers, arguments, paths and redirects. */
  judgeCommand(node: Command, pipedInput: boolean): SubCommand {
    for (const prefix of node.prefix)
      if (prefix.type === 'Assignment') this.checkAssignment(prefix.name, assignedText(prefix))
    const argv = [
      ...(node.name ? this.expand(node.name) : []),
      ...node.args.flatMap((a) => (a.type === 'Word' ? this.expand(a) : [assignmentArg(a)]))
    ]
    const unwrapped = unwrap(argv)
    for (const program of unwrapped.elevated) {
      this.raise('critical', reasonOf('elevated', { program }))
      this.needs.add('elevation')
    }
    for (const { name, value } of unwrapped.assignments) this.checkAssignment(name, value)
    for (const reason of unwrapped.dynamic) this.raise('medium', reason, 'unknown')
    for (const arg of unwrapped.reads) this.checkPath(arg, 'read')
    for (const arg of unwrapped.writes) this.checkPath(arg, 'write', 'writes')
    if (unwrapped.cwd) {
      this.checkPath(unwrapped.cwd, 'read')
      this.moveTo(unwrapped.cwd)
    }

    const { program: programArg, args } = unwrapped
    const program = programArg.dynamic ? '' : programNameOf(programArg.text)
    this.program = programArg.dynamic ? programArg.text : program
    if (programArg.dynamic) this.raise('high', reasonOf('dynamic_program'), 'unknown')
    else this.judgeProgram(program, args, pipedInput)

    const exempt =
      program === 'echo' ||
      (program === 'printf' && args[0] && !args[0].dynamic && !args[0].text.startsWith('-'))
    if (args.some((a) => a.dynamic) && !exempt) this.raise('medium', reasonOf('dynamic_argument'), 'unknown')
    for (const redirect of node.redirects) this.checkRedirect(redirect)
    if (program === 'cd') this.followCd(args)
    return this.result()
  }

  private judgeProgram(program: string, args: Arg[], pipedInput: boolean): void {
    if (program === 'eval' || program === 'source' || program === '.')
      this.raise('high', reasonOf('eval_code', { program }))
    if (dumpsEnvironment(program, args)) this.raise('high', reasonOf('env_dump', { program }))
    if (DECLARING_BUILTINS.has(program)) {
      for (const arg of args)
        if (!arg.text.startsWith('-'))
          this.checkAssignment(
            arg.text.split('=')[0],
            arg.text.includes('=') ? arg.text.slice(arg.text.indexOf('=') + 1) : undefined
          )
    }
    const use = program === 'git' ? useOfGit(args) : useOfReadOnlyProgram(program, args)
    if (use) return this.applyUse(program, use)
    const classified = classifyOther(program, args)
    this.raise('low', classified.reason, classified.category)
    if (INTERPRETERS.has(program) && pipedInput)
      this.raise('critical', reasonOf('pipe_to_interpreter', { program }), 'unknown')
    this.raise(baseRisk(this.category))
    if (this.category === 'network') this.needs.add('network')
    this.checkOperands(program, args)
  }

  /** Paths of programs outside the read-only table: writers write their operands, others may read them. */
  private checkOperands(program: string, args: Arg[]): void {
    const access: Access = this.category === 'writes' || this.category === 'destructive' ? 'write' : 'read'
    const isOption = (a: Arg): boolean => !a.dynamic && a.text.startsWith('-')
    const targetFlag = args.findIndex((a) => a.text === '-t')
    const hasTarget = targetFlag >= 0 || args.some((a) => a.text.startsWith('--target-directory='))
    const lastOperand = args.findLastIndex((a) => !isOption(a))
    args.forEach((arg, index) => {
      if (isOption(arg)) {
        const value = { text: arg.text.slice(arg.text.indexOf('=') + 1), dynamic: false }
        if (arg.text.startsWith('--target-directory=')) this.checkPath(value, 'write')
        else if (arg.text.includes('=')) this.checkPath(value, access)
      } else if (targetFlag >= 0 && index === targetFlag + 1) {
        this.checkPath(arg, 'write')
      } else if (COPYING.has(program) && (hasTarget || index !== lastOperand)) {
        // Copied or linked from: read (a hard link to a file outside would make it look inside).
        this.checkPath(arg, 'read', undefined, true)
      } else this.checkPath(arg, access)
    })
  }

  /** Applies what the read-only table (or git) found in the arguments. */
  private applyUse(program: string, use: ProgramUse): void {
    for (const verdict of use.verdicts) this.raise('low', verdict.reason, verdict.category)
    for (const { hazard, option } of use.hazards) this.applyHazard(program, hazard, option)
    if (use.repositoryWrite) {
      this.needs.add('write_protected')
      if (use.repositoryWrite.config) this.raise('high', reasonOf('git_config_write'))
    }
    for (const name of use.shownVariables)
      if (isSecretVariableName(name)) this.raise('high', reasonOf('secret_variable', { name }))
    for (const name of use.setVariables) this.checkAssignment(name, undefined)
    this.raise(baseRisk(this.category))
    if (this.category === 'network') this.needs.add('network')
    if (program === 'git') this.checkRepositoryRoot(use)
    const moved = use.cwd
    if (moved) this.checkPath(moved, 'read')
    if (moved) this.moveTo(moved)
    for (const { arg, recursive } of use.reads)
      if (arg !== moved)
        this.checkPath(arg, this.category === 'destructive' ? 'write' : 'read', undefined, recursive)
    for (const arg of use.writes) if (arg !== moved) this.checkPath(arg, 'write')
  }

  private applyHazard(program: string, hazard: string, option: string): void {
    if (hazard === 'runs')
      this.raise('medium', reasonOf('option_runs_program', { program, option }), 'unknown')
    else if (hazard === 'writes')
      this.raise('medium', reasonOf('option_writes_file', { program, option }), 'writes')
    else if (hazard === 'list')
      this.raise('medium', reasonOf('paths_from_input', { program, option }), 'unknown')
    else if (hazard === 'follows')
      this.raise('medium', reasonOf('follows_links', { program, option }), 'unknown')
    else if (hazard === 'env') this.raise('high', reasonOf('env_dump', { program }))
    else if (hazard === 'system')
      this.raise('medium', reasonOf('changes_system', { program, option }), 'unknown')
    else if (hazard === 'extract') this.raise('medium', reasonOf('archive_extract', { program }), 'unknown')
    else if (hazard === 'network') {
      this.raise('high', reasonOf('network_program', { program }), 'network')
      this.needs.add('network')
    }
  }

  /** git in a folder of a repository whose root lies above the workspace reads and writes outside it. */
  private checkRepositoryRoot(use: ProgramUse): void {
    if (use.cwd) return
    const root = repositoryRootOf(this.cwd)
    if (root && !isInside(physicalPathOf(root, '/'), this.scope.workspace))
      this.checkPath({ text: root, dynamic: false }, use.repositoryWrite ? 'write' : 'read')
  }

  /** `PATH=... cmd`, `export LD_PRELOAD=...`, `printf -v PATH`: changing what runs is high. */
  private checkAssignment(name: string, value: string | undefined): void {
    if (changesWhatRuns(name, value)) this.raise('high', reasonOf('loader_variable', { name }))
  }

  private moveTo(dir: Arg): void {
    this.cwd = resolve(this.cwd, expandHome(dir.text, this.scope.home))
  }

  /** Later relative paths resolve from where `cd` went; `cd` alone goes home, `cd -` back. */
  private followCd(args: Arg[]): void {
    const physical = args.some((a) => a.text === '-P')
    const target = args.find((a) => a.dynamic || !/^-[LPe@]+$/.test(a.text))
    const previous = this.scope.cwd
    if (target?.text === '-' && !target.dynamic) {
      if (this.scope.oldCwd === undefined) {
        this.raise('medium', reasonOf('cd_previous'))
        this.scope.cwd = '/'
      } else this.scope.cwd = this.scope.oldCwd
    } else if (target?.dynamic) {
      this.scope.cwd = '/'
    } else {
      const text = target?.text ?? '~'
      this.checkPath(target ?? { text, dynamic: false }, 'read')
      const logical = resolve(previous, expandHome(text, this.scope.home))
      this.scope.cwd = physical ? physicalPathOf(expandHome(text, this.scope.home), previous) : logical
    }
    this.scope.oldCwd = previous
  }

  /**
   * Judges one path argument by where it really leads (links followed as the kernel follows
   * them). Reads and writes outside the workspace, writes to protected entries, and anything in
   * the app's data folder raise the risk.
   */
  checkPath(arg: Arg, access: Access, category?: CommandCategory, recursive = false): void {
    if (!arg.text || URL_LIKE.test(arg.text) || HARMLESS_TARGETS.has(arg.text)) return
    const raw = arg.shown ?? arg.text
    if (category) this.category = strongest(this.category, category)
    const { workspace, home, appData } = this.scope
    const real = physicalPathOf(expandHome(arg.text, home), this.cwd)
    this.checkAppData(raw, real, access, recursive)
    const sensitive = isSensitivePath(real) || /^\/proc\/[^/]+\/environ$/.test(real)
    if (isInside(real, workspace)) {
      if (access === 'write') this.checkProtected(raw, real, sensitive)
      return
    }
    this.outside.add(real)
    if (access === 'write') this.needs.add('write_outside')
    const broad =
      real === '/' ||
      real === home ||
      isInside(workspace, real) ||
      (appData !== undefined && isInside(appData.dataDir, real))
    if (access === 'write' && broad) this.raise('critical', reasonOf('broad_write', { path: raw }))
    else if (access === 'read') {
      this.raise(sensitive ? 'high' : 'medium', reasonOf('outside_read', { path: raw }))
      if (sensitive) this.needs.add('sensitive_read')
    } else if (this.category === 'destructive')
      this.raise('critical', reasonOf('outside_destructive', { path: raw }))
    else this.raise(sensitive ? 'critical' : 'high', reasonOf('outside_write', { path: raw }))
  }

  private checkProtected(raw: string, real: string, sensitive: boolean): void {
    // At any depth, git directories and what git reads through its config too (names fold case on macOS and Windows).
    const hit = protectedWriteOf(real, this.scope.workspace, this.scope.home)
    if (hit) {
      this.raise('high', protectedReason(raw, hit))
      this.needs.add('write_protected')
    }
    if (sensitive) this.raise('high', reasonOf('sensitive_write', { path: raw }))
  }

  /** The data folder is outside every boundary, also when a workspace contains it. */
  private checkAppData(raw: string, real: string, access: Access, recursive: boolean): void {
    const boundary = this.scope.appData
    if (!boundary) return
    const kind = appDataAccess(real, boundary)
    // Descending into (or writing over) a folder that holds the data folder reaches it too.
    const contains =
      (recursive || access === 'write') && real !== boundary.dataDir && isInside(boundary.dataDir, real)
    if (!kind && !contains) return
    this.raise('critical', reasonOf(kind === 'secrets' ? 'secrets_file' : 'app_data', { paths: raw }))
    this.needs.add('app_data')
  }

  checkRedirect(redirect: Redirection): void {
    if (redirect.type !== 'Redirect' || !redirect.target) return
    const op = redirect.operator
    const targets = this.expand(redirect.target)
    if (targets.some((t) => t.dynamic)) this.raise('medium', reasonOf('dynamic_argument'), 'unknown')
    for (const target of targets) {
      if ((op === '>&' || op === '<&') && /^\d+$|^-$/.test(target.text)) continue
      if (HARMLESS_TARGETS.has(target.text)) continue
      // bash itself opens a connection for /dev/tcp/host/port.
      if (/^\/dev\/(tcp|udp)\//.test(target.text)) {
        this.raise('high', reasonOf('network_program', { program: target.text }), 'network')
        this.needs.add('network')
      }
      if (op === '<') {
        this.checkPath(target, 'read')
        continue
      }
      this.raise('medium', reasonOf('redirect_output', { target: target.shown ?? target.text }), 'writes')
      // Redirects resolve from the shell's folder, not a wrapper's `-C`.
      const own = this.cwd
      this.cwd = this.scope.cwd
      this.checkPath(target, 'write')
      this.cwd = own
    }
  }
}

function baseRisk(category: CommandCategory): RiskLevel {
  if (category === 'read_only') return 'low'
  return category === 'network' || category === 'destructive' ? 'high' : 'medium'
}

/** `/usr/bin/cat` is cat; `./cat` or `/tmp/x/cat` is a file of unknown content that happens to be named cat. */
function programNameOf(text: string): string {
  if (!text.includes('/')) return text
  return SYSTEM_BIN.test(text) ? basename(text) : text
}

function classifyOther(program: string, args: Arg[]): Classified {
  if (program === '') return { category: 'read_only' }
  const pm = classifyPackageManager(
    program,
    args.map((a) => a.text)
  )
  if (pm) return pm
  if (DESTRUCTIVE_PROGRAMS.has(program))
    return { category: 'destructive', reason: reasonOf('destructive_program', { program }) }
  if (NETWORK_PROGRAMS.has(program)) {
    const writes = args.some((a) => a.text === '-o' || a.text === '-O' || a.text.startsWith('--output'))
    return {
      category: 'network',
      reason: reasonOf(writes ? 'network_program_writes' : 'network_program', { program })
    }
  }
  if (
    program === 'zip' &&
    args.some((a) => a.text === '-TT' || a.text.startsWith('--unzip-command') || a.text.startsWith('-TT'))
  ) {
    return { category: 'unknown', reason: reasonOf('option_runs_program', { program, option: '-TT' }) }
  }
  if (WRITING_PROGRAMS.has(program)) return { category: 'writes' }
  if (INTERPRETERS.has(program)) return { category: 'unknown', reason: reasonOf('interpreter', { program }) }
  return { category: 'unknown', reason: reasonOf('unknown_program', { program }) }
}

function assignedText(assignment: Assignment): string | undefined {
  return assignment.value.type === 'Word' ? assignment.value.value : undefined
}

/** `export NAME=value` arrives as an assignment; the builtin sees `NAME=value`. */
function assignmentArg(assignment: Assignment): Arg {
  const value = assignedText(assignment)
  return {
    text: value === undefined ? assignment.name : `${assignment.name}=${value}`,
    dynamic: value === undefined || /[$`]/.test(assignment.text.slice(assignment.name.length))
  }
}
