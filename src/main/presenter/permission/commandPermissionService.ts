import { homedir } from 'node:os'
import type { PermissionMode, PermissionRequest } from '@shared/types/permission'
import { analyzeCommand, type CommandAnalysis } from './commandClassifier'
import { ReasonList, reasonOf } from './reasonText'

export interface CommandScope {
  sessionId: string
  workspaceDir: string
  cwd: string
  tool: string
  server: string
}

/**
 * Decides whether a shell line needs the user. Only lines made entirely of read-only commands
 * inside the workspace run unasked; `accept_edits` also lets workspace-only writes through.
 */
export class CommandPermissionService {
  constructor(private readonly home: string = homedir()) {}

  analyze(command: string, scope: Pick<CommandScope, 'cwd' | 'workspaceDir'>): CommandAnalysis {
    return analyzeCommand(command, { cwd: scope.cwd, workspaceDir: scope.workspaceDir, home: this.home })
  }

  check(command: string, scope: CommandScope, mode: PermissionMode = 'default'): PermissionRequest | null {
    const analysis = this.analyze(command, scope)
    if (runsUnasked(analysis, mode)) return null
    const reasons = requestReasons(analysis)
    const firstAsking = analysis.subCommands.find((s) => s.risk !== 'low') ?? analysis.subCommands[0]
    return {
      type: 'command',
      tool: scope.tool,
      server: scope.server,
      sessionId: scope.sessionId,
      risk: analysis.risk,
      reason: reasons.texts.join('; '),
      reasonCodes: reasons.codes,
      command,
      cwd: scope.cwd,
      subCommands: analysis.subCommands,
      lineReasons: analysis.lineReasons,
      lineReasonCodes: analysis.lineReasonCodes,
      suggestedRule: { kind: 'exec', pattern: firstAsking ? `${firstAsking.text}*` : command, effect: 'allow' }
    }
  }
}

/** The line's reasons, then each sub-command's, without repeats; a generic one when there are none. */
function requestReasons(analysis: CommandAnalysis): ReasonList {
  const list = new ReasonList()
  analysis.lineReasons.forEach((text, i) => list.add({ text, code: analysis.lineReasonCodes[i] }))
  for (const sub of analysis.subCommands) {
    sub.reasons.forEach((text, i) => list.add({ text, code: sub.reasonCodes?.[i] ?? { code: 'unknown' } }))
  }
  if (list.size === 0) list.add(reasonOf('command_may_change'))
  return list
}

export function runsUnasked(analysis: CommandAnalysis, mode: PermissionMode): boolean {
  if (analysis.lineReasons.length > 0) return false
  if (analysis.subCommands.every((s) => s.risk === 'low' && s.category === 'read_only')) return true
  if (mode !== 'accept_edits') return false
  // accept_edits: workspace-only edits (mkdir, cp, sed -i, redirects into the workspace) too.
  return analysis.subCommands.every(
    (s) => (s.category === 'read_only' || s.category === 'writes') && s.outsidePaths.length === 0 && s.risk !== 'high' && s.risk !== 'critical'
  )
}
