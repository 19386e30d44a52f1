import { homedir } from 'node:os'
import type { PermissionMode, PermissionRequest } from '@shared/types/permission'
import type { AppDataBoundary } from './boundary'
import { analyzeCommand, type CommandAnalysis, type SandboxNeed } from './commandClassifier'
import { ReasonList, reasonOf, type Reason } from './reasonText'
import { maxRisk } from './subCommandJudge'

/** How long a command's analysis is reused for the same line in the same folder (see `analyze`). */
const REUSE_ANALYSIS_MS = 1_000

export interface CommandScope {
  sessionId: string
  workspaceDir: string
  cwd: string
  tool: string
  server: string
}

export interface CommandPermissionOptions {
  /** The home folder `~` and `$HOME` stand for. */
  home?: string
  /** The app's data folder: any path into it is critical, the secrets file has its own reason. */
  appData?: AppDataBoundary
}

/**
 * Decides whether a shell line needs the user. Only lines made entirely of read-only commands
 * inside the workspace run unasked; `accept_edits` also lets workspace-only writes through, and
 * `sandboxed` (with a sandbox) anything the OS sandbox can contain.
 */
export class CommandPermissionService {
  private readonly home: string
  private readonly appData?: AppDataBoundary

  /** `options` may be just the home folder (tests and older callers). */
  constructor(options: string | CommandPermissionOptions = {}) {
    const given = typeof options === 'string' ? { home: options } : options
    this.home = given.home ?? homedir()
    this.appData = given.appData
  }

  /**
   * The exec tool asks twice per call (its permission check, then how to sandbox the run), a
   * moment apart: the second ask reuses the first answer when it is that recent.
   */
  private lastAnalysis: { key: string; at: number; analysis: CommandAnalysis } | null = null

  analyze(command: string, scope: Pick<CommandScope, 'cwd' | 'workspaceDir'>): CommandAnalysis {
    const key = `${command}\0${scope.cwd}\0${scope.workspaceDir}`
    const now = performance.now()
    const last = this.lastAnalysis
    if (last && last.key === key && now - last.at < REUSE_ANALYSIS_MS) return last.analysis
    const analysis = analyzeCommand(command, {
      cwd: scope.cwd,
      workspaceDir: scope.workspaceDir,
      home: this.home,
      appData: this.appData
    })
    this.lastAnalysis = { key, at: now, analysis }
    return analysis
  }

  check(
    command: string,
    scope: CommandScope,
    mode: PermissionMode = 'default',
    sandboxAvailable = false
  ): PermissionRequest | null {
    const analysis = this.analyze(command, scope)
    if (runsUnasked(analysis, mode, sandboxAvailable)) return null
    return this.request(command, scope, analysis)
  }

  /** The request for a line the model wants to run outside the sandbox: always asked, whatever the line. */
  checkOutsideSandbox(command: string, scope: CommandScope): PermissionRequest {
    const analysis = this.analyze(command, scope)
    const request = this.request(command, scope, analysis, reasonOf('outside_sandbox'))
    return { ...request, risk: maxRisk(request.risk, 'medium') }
  }

  private request(
    command: string,
    scope: CommandScope,
    analysis: CommandAnalysis,
    extra?: Reason
  ): PermissionRequest {
    const reasons = requestReasons(analysis, extra)
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
      // Nothing critical is remembered: no "Always allow" rule, least of all a wildcard one.
      suggestedRule:
        analysis.risk === 'critical'
          ? undefined
          : { kind: 'exec', pattern: firstAsking ? `${firstAsking.text}*` : command, effect: 'allow' }
    }
  }
}

/** The line's reasons, then each sub-command's, without repeats; a generic one when there are none. */
function requestReasons(analysis: CommandAnalysis, first?: Reason): ReasonList {
  const list = new ReasonList()
  if (first) list.add(first)
  analysis.lineReasons.forEach((text, i) => list.add({ text, code: analysis.lineReasonCodes[i] }))
  for (const sub of analysis.subCommands) {
    sub.reasons.forEach((text, i) => list.add({ text, code: sub.reasonCodes?.[i] ?? { code: 'unknown' } }))
  }
  if (list.size === 0) list.add(reasonOf('command_may_change'))
  return list
}

/** Needs that stop a line from running unasked in the sandbox: it cannot give them. */
const BEYOND_SANDBOX: SandboxNeed[] = [
  'network',
  'write_outside',
  'write_protected',
  'app_data',
  'elevation',
  'sensitive_read'
]

/** True when every sub-command only reads and nothing about the line needs a look. */
export function isReadOnlyLine(analysis: CommandAnalysis): boolean {
  return (
    analysis.lineReasons.length === 0 &&
    analysis.subCommands.every((s) => s.risk === 'low' && s.category === 'read_only')
  )
}

/**
 * Whether the line may run without asking in `mode`. `default`: read-only lines only.
 * `accept_edits`: also workspace edits (never protected entries, the data folder, or anything
 * outside). `sandboxed`: any line the OS sandbox contains (no network, workspace writes except
 * protected entries, data folder hidden), unless it is critical; without a sandbox it is
 * `accept_edits`. `full_access` is the gate's business: here it is `default`.
 */
export function runsUnasked(
  analysis: CommandAnalysis,
  mode: PermissionMode,
  sandboxAvailable: boolean
): boolean {
  const effective = mode === 'sandboxed' && !sandboxAvailable ? 'accept_edits' : mode
  if (effective === 'sandboxed')
    return analysis.risk !== 'critical' && !analysis.needs.some((need) => BEYOND_SANDBOX.includes(need))
  if (isReadOnlyLine(analysis)) return true
  if (effective !== 'accept_edits' || analysis.lineReasons.length > 0 || analysis.needs.length > 0)
    return false
  return analysis.subCommands.every(
    (s) =>
      (s.category === 'read_only' || s.category === 'writes') &&
      s.outsidePaths.length === 0 &&
      s.risk !== 'high' &&
      s.risk !== 'critical'
  )
}

/**
 * Whether the exec tool should give the sandbox a writable workspace: true when the line runs
 * unasked because the mode allows edits (accept_edits, sandboxed), false for a read-only line.
 */
export function sandboxWritesWorkspace(analysis: CommandAnalysis, mode: PermissionMode): boolean {
  if (mode !== 'accept_edits' && mode !== 'sandboxed') return false
  return !analysis.subCommands.every((s) => s.category === 'read_only')
}
