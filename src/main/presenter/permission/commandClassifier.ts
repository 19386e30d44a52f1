import { homedir } from 'node:os'
import { forEachChild, parse, type SyntaxNode } from 'unbash'
import type { ReasonCode, RiskLevel, SubCommand } from '@shared/types/permission'
import { appDataAccess, type AppDataBoundary } from './boundary'
import { isInside, realPathOf } from './paths'
import { SubCommandJudge, maxRisk, type SandboxNeed, type Scope } from './subCommandJudge'
import { ReasonList, reasonOf, type Reason } from './reasonText'
import { variableUseOf } from './shellEnvironment'

export { maxRisk }
export type { SandboxNeed }

export interface CommandAnalysis {
  command: string
  subCommands: SubCommand[]
  /** Reasons that belong to the line, not one command: substitutions, subshells, secrets, parse errors. */
  lineReasons: string[]
  /** `lineReasons` as codes, same order. */
  lineReasonCodes: ReasonCode[]
  risk: RiskLevel
  /** What the line needs that the OS sandbox does not give (network, writes outside or to protected paths, ...). */
  needs: SandboxNeed[]
}

export interface AnalyzeOptions {
  cwd: string
  workspaceDir: string
  home?: string
  appData?: AppDataBoundary
}

const LINE_REASONS: Partial<Record<SyntaxNode['type'], Reason>> = {
  Subshell: reasonOf('subshell'),
  CommandExpansion: reasonOf('command_substitution'),
  ProcessSubstitution: reasonOf('process_substitution'),
  Function: reasonOf('shell_function'),
  Coproc: reasonOf('coprocess')
}

/** Line reasons and the risk each brings. */
class LineReasons {
  readonly list = new ReasonList()
  risk: RiskLevel = 'low'

  add(reason: Reason, risk: RiskLevel = 'medium'): void {
    this.list.add(reason)
    this.risk = maxRisk(this.risk, risk)
  }
}

/**
 * Parses a shell line with a real bash parser and classifies every simple command in it,
 * including those inside pipelines, `&&`/`;` lists, subshells, substitutions and compound
 * commands with redirects. Pure: it only reads the disk (links, globs, repository roots).
 */
export function analyzeCommand(command: string, options: AnalyzeOptions): CommandAnalysis {
  const scope: Scope = {
    workspace: realPathOf(options.workspaceDir),
    cwd: options.cwd,
    home: options.home ?? homedir(),
    appData: options.appData
  }
  const subCommands: SubCommand[] = []
  const needs = new Set<SandboxNeed>()
  const line = new LineReasons()
  const cwdReal = realPathOf(options.cwd)
  if (!isInside(cwdReal, scope.workspace)) line.add(reasonOf('cwd_outside'))
  // Working inside the app's data folder reaches it with any bare `ls` or `cat *`.
  if (appDataAccess(cwdReal, scope.appData)) {
    line.add(reasonOf('app_data', { paths: options.cwd }), 'critical')
    needs.add('app_data')
  }
  const ast = parse(command)
  if (ast.errors?.length) line.add(reasonOf('parse_error', { message: ast.errors[0].message }), 'high')
  addVariableReasons(ast, command, line)

  const judged = (judge: SubCommandJudge): void => {
    subCommands.push(judge.result())
    for (const need of judge.needs) needs.add(need)
  }
  const visit = (node: SyntaxNode, pipedInput: boolean): void => {
    const reason = LINE_REASONS[node.type]
    if (reason) line.add(reason)
    if (node.type === 'Command') {
      const judge = new SubCommandJudge(scope, textOf(command, node))
      judge.judgeCommand(node, pipedInput)
      judged(judge)
    } else if (node.type === 'Redirected') {
      // `{ echo x; } > ~/.bashrc`: the redirect belongs to the whole group.
      const judge = new SubCommandJudge(scope, textOf(command, node), '(redirect)')
      for (const redirect of node.redirects) judge.checkRedirect(redirect)
      judged(judge)
    } else if ((node.type === 'For' || node.type === 'Select') && node.wordlist) {
      // `for f in ~/.ssh/*`: the list is expanded (and its globs read) before any command runs.
      const judge = new SubCommandJudge(
        scope,
        `for ${node.name.text} in ${node.wordlist.map((w) => w.text).join(' ')}`,
        '(for)'
      )
      for (const word of node.wordlist) judge.expand(word)
      judged(judge)
    } else if (node.type === 'Pipeline') {
      node.commands.forEach((child, index) => visit(child, index > 0))
      return
    } else if (node.type === 'Statement' && node.background) {
      line.add(reasonOf('background'))
    }
    forEachChild(node, (child) => visit(child, false))
  }
  visit(ast, false)

  if (subCommands.length === 0 && command.trim() !== '') line.add(reasonOf('no_command'))
  const risk = subCommands.reduce<RiskLevel>((acc, sub) => maxRisk(acc, sub.risk), line.risk)
  return {
    command,
    subCommands,
    lineReasons: line.list.texts,
    lineReasonCodes: line.list.codes,
    risk,
    needs: [...needs]
  }
}

/** Secret-looking variables expanded anywhere, indirect expansions, and CDPATH. */
function addVariableReasons(ast: SyntaxNode, command: string, line: LineReasons): void {
  const { secrets, indirect } = variableUseOf(ast)
  for (const name of secrets) line.add(reasonOf('secret_variable', { name }), 'high')
  for (const text of indirect) line.add(reasonOf('indirect_expansion', { text }), 'high')
  // The exec environment carries no CDPATH; a line that sets one makes every `cd name` a guess.
  if (/\bCDPATH\b/.test(command)) line.add(reasonOf('cdpath'))
}

function textOf(source: string, node: { pos: number; end: number }): string {
  return source.slice(node.pos, node.end).replace(/\s+/g, ' ').trim()
}
