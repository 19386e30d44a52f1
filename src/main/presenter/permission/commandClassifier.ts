import { homedir } from 'node:os'
import { forEachChild, parse, type SyntaxNode } from 'unbash'
import type { ReasonCode, RiskLevel, SubCommand } from '@shared/types/permission'
import { isInside, realPathOf } from './paths'
import { SubCommandJudge, maxRisk, type Scope } from './subCommandJudge'
import { ReasonList, reasonOf, type Reason } from './reasonText'

export { maxRisk }

export interface CommandAnalysis {
  command: string
  subCommands: SubCommand[]
  /** Reasons that belong to the line, not one command: substitutions, subshells, parse errors. */
  lineReasons: string[]
  /** `lineReasons` as codes, same order. */
  lineReasonCodes: ReasonCode[]
  risk: RiskLevel
}

const LINE_REASONS: Partial<Record<SyntaxNode['type'], Reason>> = {
  Subshell: reasonOf('subshell'),
  CommandExpansion: reasonOf('command_substitution'),
  ProcessSubstitution: reasonOf('process_substitution'),
  Function: reasonOf('shell_function'),
  Coproc: reasonOf('coprocess')
}

/**
 * Parses a shell line with a real bash parser and classifies every simple command in it,
 * including those inside pipelines, `&&`/`;` lists, subshells, substitutions and compound
 * commands with redirects. Pure: it only reads the disk to resolve symlinks.
 */
export function analyzeCommand(command: string, options: { cwd: string; workspaceDir: string; home?: string }): CommandAnalysis {
  const scope: Scope = { workspace: realPathOf(options.workspaceDir), cwd: options.cwd, home: options.home ?? homedir() }
  const subCommands: SubCommand[] = []
  const lineReasons = new ReasonList()
  if (!isInside(realPathOf(options.cwd), scope.workspace)) lineReasons.add(reasonOf('cwd_outside'))
  const ast = parse(command)
  if (ast.errors?.length) lineReasons.add(reasonOf('parse_error', { message: ast.errors[0].message }))

  const visit = (node: SyntaxNode, pipedInput: boolean): void => {
    const reason = LINE_REASONS[node.type]
    if (reason) lineReasons.add(reason)
    if (node.type === 'Command') {
      subCommands.push(new SubCommandJudge(scope, textOf(command, node)).judgeCommand(node, pipedInput))
    } else if (node.type === 'Redirected') {
      // `{ echo x; } > ~/.bashrc`: the redirect belongs to the whole group.
      const judge = new SubCommandJudge(scope, textOf(command, node), '(redirect)')
      for (const redirect of node.redirects) judge.checkRedirect(redirect)
      subCommands.push(judge.result())
    } else if (node.type === 'Pipeline') {
      node.commands.forEach((child, index) => visit(child, index > 0))
      return
    } else if (node.type === 'Statement' && node.background) {
      lineReasons.add(reasonOf('background'))
    }
    forEachChild(node, (child) => visit(child, false))
  }
  visit(ast, false)

  if (subCommands.length === 0 && command.trim() !== '') lineReasons.add(reasonOf('no_command'))
  let risk = subCommands.reduce<RiskLevel>((acc, sub) => maxRisk(acc, sub.risk), 'low')
  if (lineReasons.size > 0) risk = maxRisk(risk, ast.errors?.length ? 'high' : 'medium')
  return { command, subCommands, lineReasons: lineReasons.texts, lineReasonCodes: lineReasons.codes, risk }
}

function textOf(source: string, node: { pos: number; end: number }): string {
  return source.slice(node.pos, node.end).replace(/\s+/g, ' ').trim()
}
