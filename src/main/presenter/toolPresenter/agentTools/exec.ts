import { statSync, type Stats } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { TOOL } from '@shared/builtinTools'
import description from './descriptions/exec.md?raw'
import {
  FILESYSTEM_SERVER,
  ToolError,
  defineAgentTool,
  ok,
  pathArg,
  resolvePath,
  type AgentToolResult,
  type ToolContext
} from './defineTool'
import { TAIL_CHARS, type ProcessInfo } from './processManager'
import { realPathOf } from '../../permission/paths'
import { isReadOnlyLine, sandboxWritesWorkspace } from '../../permission/commandPermissionService'
import type { CommandAnalysis } from '../../permission/commandClassifier'
import type { SandboxPlan } from '../../sandbox'
import type { ShellCaptureResult } from './shellChanges'
import type { CommandPreview } from '@shared/types/commandPreview'

export const EXEC_DEFAULT_TIMEOUT_MS = 120_000
export const EXEC_MAX_TIMEOUT_MS = 600_000
export const EXEC_DEFAULT_YIELD_MS = 10_000

const input = z.strictObject({
  command: z.string().trim().min(1).describe('The shell command line to run'),
  cwd: pathArg.optional().describe('Working directory (default: the workspace)'),
  timeout_ms: z
    .number()
    .int()
    .min(100)
    .max(EXEC_MAX_TIMEOUT_MS)
    .optional()
    .describe(
      `Kill the command after this many ms (default ${EXEC_DEFAULT_TIMEOUT_MS}; none for background)`
    ),
  yield_ms: z
    .number()
    .int()
    .min(100)
    .max(EXEC_MAX_TIMEOUT_MS)
    .default(EXEC_DEFAULT_YIELD_MS)
    .describe('Return a process id if still running after this many ms'),
  background: z.boolean().default(false).describe('Start and return at once (servers, watchers)'),
  outside_sandbox: z
    .boolean()
    .default(false)
    .describe(
      'Run outside the sandbox (network, writes it blocks). The user is always asked first; give the reason in description'
    ),
  description: z
    .string()
    .max(200)
    .optional()
    .describe('A few words on what the command does, shown to the user')
})

export const execTool = defineAgentTool({
  name: TOOL.exec,
  group: FILESYSTEM_SERVER,
  labelKey: 'settingsAgentTools.labels.exec',
  readOnly: false,
  parallelSafe: false,
  description,
  input,
  aliases: { timeoutMs: 'timeout_ms', timeout: 'timeout_ms', yieldMs: 'yield_ms', workdir: 'cwd' },
  checkPermission: (args, ctx) =>
    args.outside_sandbox && ctx.permissionMode !== 'full_access'
      ? ctx.commands.checkOutsideSandbox(args.command, commandScope(ctx, args.cwd))
      : ctx.commands.check(
          args.command,
          commandScope(ctx, args.cwd),
          ctx.permissionMode,
          ctx.sandboxAvailable
        ),
  async execute(args, ctx) {
    const cwd = workingDir(ctx, args.cwd)
    // Synchronous: a folder's stat costs microseconds, the thread pool's round trip up to
    // milliseconds on a busy machine, on every command.
    const info = statOrNull(cwd)
    if (!info?.isDirectory()) {
      throw new ToolError(
        'cwd_not_found',
        `Working directory does not exist or is not a folder: ${cwd}. Update the session workspace or pass an existing cwd.`
      )
    }
    const analysis = ctx.commands.analyze(args.command, commandScope(ctx, args.cwd))
    const plan = sandboxPlan(ctx, analysis)
    // What a foreground command that can write changes in the workspace is recorded for the
    // turn's checkpoint. One that cannot (a read-only sandbox, a line the classifier knows only
    // reads) skips the two snapshots and runs at the cost of the shell alone.
    const started =
      args.background || !canWriteWorkspace(ctx, analysis, plan)
        ? null
        : await ctx.shellCaptures.start(shadowDir(ctx), realPathOf(ctx.workspaceDir))
    let captured: ShellCaptureResult | undefined
    let result: AgentToolResult
    try {
      // The user approved after seeing a preview: its changes are applied when the workspace is
      // as the preview found it; otherwise the command runs for real and the result says why.
      const previewed =
        ctx.approved && !args.background
          ? await ctx.commandPreviews?.applyApproved({
              sessionId: ctx.sessionId,
              toolCallId: ctx.toolCallId,
              command: args.command,
              cwd
            })
          : null
      if (previewed?.kind === 'applied') result = appliedFromPreview(args.command, previewed.preview)
      else if (previewed?.kind === 'failed')
        throw new ToolError(
          'preview_apply_failed',
          `Applying the previewed changes failed partway (${previewed.detail}); the command was not run again, so nothing happens twice. The workspace may hold part of the changes: look before retrying.`
        )
      else result = await runCommand(args, ctx, cwd, plan)
      if (previewed?.kind === 'run') result = withPreviewNote(result, previewed)
    } finally {
      if (started?.capture) {
        captured = await started.capture.finish()
        await recordShellChanges(ctx, captured)
      }
    }
    const notRecorded = started?.capture ? captured?.notRecorded : started?.notRecorded
    return notRecorded ? withNotRecorded(result, notRecorded) : result
  }
})

/** Whether a command could change the workspace, so its changes must be captured for undo. */
function canWriteWorkspace(
  ctx: ToolContext,
  analysis: CommandAnalysis,
  plan: SandboxPlan | undefined
): boolean {
  if (plan && !plan.writableWorkspace && ctx.sandboxAvailable) return false
  return !isReadOnlyLine(analysis)
}

/** The result of an approved command whose preview's changes were applied: the preview's own output. */
function appliedFromPreview(
  command: string,
  preview: Extract<CommandPreview, { status: 'done' }>
): AgentToolResult {
  const output = [preview.stdout.trimEnd(), preview.stderr.trimEnd()].filter(Boolean).join('\n')
  const lines = [
    `Applied from preview: the ${preview.files.length + preview.filesOmitted} changes its sandboxed run made on a copy of the workspace were applied after approval; it did not run again.`,
    output,
    preview.outputDropped ? `[… ${preview.outputDropped} further characters not shown]` : '',
    `Exit code: ${preview.exitCode ?? 'none'}`
  ]
  const summary = `${command} applied from preview (exit ${preview.exitCode ?? 'none'})`
  const data = { exitCode: preview.exitCode, timedOut: false, sandboxed: false, preview: 'applied' }
  const content = lines.filter((l) => l !== '').join('\n')
  if (preview.exitCode === 0) return ok(summary, content, data)
  return { ok: false, summary, content, data, error: { code: 'nonzero_exit', message: summary } }
}

const RAN_FOR_REAL: Record<string, string> = {
  workspace_changed: 'the workspace changed since the preview',
  refused: 'the preview was refused the network or a write outside the workspace',
  timed_out: 'the preview hit its time limit',
  size_limit: 'the preview wrote more than its size limit',
  protected: 'the command writes .git or another protected entry, which the preview keeps read-only',
  left_running: 'the command leaves processes running, which a preview cannot keep',
  unfinished: 'the preview had not finished',
  unavailable: 'there was no usable preview'
}

/** Says that an approved, previewed command ran for real, and why its preview was not applied. */
function withPreviewNote(
  result: AgentToolResult,
  previewed: { reason: string; detail?: string }
): AgentToolResult {
  const why = RAN_FOR_REAL[previewed.reason] ?? previewed.reason
  const note = `Ran for real after approval, not applied from preview: ${why}${previewed.detail ? ` (${previewed.detail})` : ''}.`
  const data = typeof result.data === 'object' && result.data ? result.data : {}
  const content =
    typeof result.content === 'string'
      ? `${note}\n${result.content}`
      : [{ type: 'text' as const, text: note }, ...result.content]
  return { ...result, content, data: { ...data, preview: 'ran', previewReason: previewed.reason } }
}

/** Tells the model and the user that undo will not cover what this command changed. */
function withNotRecorded(result: AgentToolResult, why: string): AgentToolResult {
  const note = `Changes this command made in the workspace were not recorded for undo: ${why}.`
  const data = typeof result.data === 'object' && result.data ? result.data : {}
  const content =
    typeof result.content === 'string'
      ? `${result.content}\n${note}`
      : [...result.content, { type: 'text' as const, text: note }]
  return { ...result, content, data: { ...data, changesNotRecorded: why } }
}

async function runCommand(
  args: z.infer<typeof input>,
  ctx: ToolContext,
  cwd: string,
  plan: SandboxPlan | undefined
) {
  const timeoutMs = args.timeout_ms ?? (args.background ? undefined : EXEC_DEFAULT_TIMEOUT_MS)
  const started = await ctx.processes.start({
    sandbox: plan,
    sessionId: ctx.sessionId,
    command: args.command,
    cwd,
    logDir: ctx.sessionDataDir,
    timeoutMs,
    keepStdin: args.background,
    dieWithHost: args.background,
    onChange: (p) =>
      ctx.runtime.notifyProcessChanged?.({
        sessionId: ctx.sessionId,
        processId: p.processId,
        command: p.command,
        status: p.status,
        exitCode: p.exitCode
      })
  })
  if (args.background) return running(started.processId, args.command, 'started in the background')
  const outcome = await ctx.processes.waitForExitOrYield(
    ctx.sessionId,
    started.processId,
    args.yield_ms,
    ctx.signal
  )
  if (outcome === 'aborted') {
    await ctx.processes.remove(ctx.sessionId, started.processId)
    throw new ToolError('aborted', 'The command was cancelled and its processes were killed')
  }
  if (outcome === 'yielded')
    return running(started.processId, args.command, `still running after ${args.yield_ms} ms`)
  return finished(ctx, started.processId)
}

const shadowDir = (ctx: ToolContext) => join(ctx.sessionDataDir, 'shell-checkpoints')

async function recordShellChanges(ctx: ToolContext, { changes }: ShellCaptureResult): Promise<void> {
  const root = realPathOf(ctx.workspaceDir)
  for (const change of changes)
    await ctx.runtime.recordFileSnapshot({
      sessionId: ctx.sessionId,
      toolCallId: ctx.toolCallId,
      tool: TOOL.exec,
      path: join(root, change.path),
      previousContent: change.previousContent,
      ...(change.notKept ? { notKept: change.notKept } : {})
    })
}

function commandScope(ctx: ToolContext, cwd: string | undefined) {
  return {
    sessionId: ctx.sessionId,
    workspaceDir: ctx.workspaceDir,
    cwd: workingDir(ctx, cwd),
    tool: 'exec',
    server: FILESYSTEM_SERVER
  }
}

/**
 * How a command runs: one someone approved (an answer, a grant, a rule, full access) runs as
 * approved on the host; one nobody approved runs in the OS sandbox, its workspace writable only
 * when the mode let it through as an edit.
 */
function sandboxPlan(ctx: ToolContext, analysis: CommandAnalysis): SandboxPlan | undefined {
  if (ctx.approved || ctx.permissionMode === 'full_access') return undefined
  return {
    workspaceDir: realPathOf(ctx.workspaceDir),
    writableWorkspace: sandboxWritesWorkspace(analysis, ctx.permissionMode)
  }
}

const SANDBOX_NOTE =
  'Ran in the sandbox without asking: no network, home folder and app data hidden, files outside the workspace read-only (and the workspace too unless the mode allows edits). If it needs more, run it again with outside_sandbox: true and say why in description: the user will be asked.'

/** Tells the model (and the user, in the tool block) which planted entries were taken out again. */
function undoneNote(undone: NonNullable<ProcessInfo['protectedUndone']>): string {
  const items = undone.map((u) => (u.movedTo ? `${u.path} (moved to ${u.movedTo})` : `${u.path} (deleted)`))
  return `The sandbox undid what this command created in protected places (git directories, .git, .envrc, editor and hook folders, files git reads through its config), because they make programs run later on the host: ${items.join(', ')}. Ask the user to run such a change outside the sandbox if it is really needed.`
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null
  } catch {
    return null
  }
}

function workingDir(ctx: ToolContext, cwd: string | undefined): string {
  return cwd && cwd.trim() ? resolvePath(ctx, cwd) : resolvePath(ctx, '.')
}

function running(processId: string, command: string, state: string) {
  const text = JSON.stringify({ status: 'running', process_id: processId })
  return ok(
    `${command} ${state} (${processId})`,
    `${text}\nThe command is ${state}. Use the process tool (poll, log, kill) with process_id ${processId}.`,
    {
      status: 'running',
      processId
    }
  )
}

function finished(ctx: ToolContext, processId: string) {
  const info = ctx.processes.info(ctx.sessionId, processId)
  const tail = ctx.processes.tail(ctx.sessionId, processId, TAIL_CHARS)
  // A spilled log stays available through `process log`; a small finished run is forgotten.
  if (!info.logFile) ctx.processes.forget(ctx.sessionId, processId)
  const lines = [tail.trimEnd()]
  if (info.outputLength > tail.length)
    lines.unshift(`[… ${info.outputLength - tail.length} earlier characters not shown]`)
  lines.push(`Exit code: ${info.exitCode ?? 'none'}`)
  if (info.timedOut) lines.push('Timed out: the process tree was killed')
  if (info.logFile) lines.push(`Full output (${info.outputLength} characters): ${info.logFile}`)
  // The model should know why a write failed with "Read-only file system" or a connection was refused.
  if (info.sandboxed) lines.push(SANDBOX_NOTE)
  if (info.sandboxNotice) lines.push(info.sandboxNotice)
  if (info.protectedUndone?.length) lines.push(undoneNote(info.protectedUndone))
  const content = lines.filter((l) => l !== '').join('\n')
  const success = info.exitCode === 0 && !info.timedOut
  const summary = info.timedOut
    ? `${info.command} timed out`
    : `${info.command} exited with ${info.exitCode ?? 'no code'}`
  const data = {
    exitCode: info.exitCode,
    timedOut: info.timedOut,
    outputLength: info.outputLength,
    logFile: info.logFile,
    sandboxed: info.sandboxed,
    ...(info.protectedUndone?.length ? { protectedUndone: info.protectedUndone } : {})
  }
  if (success) return ok(summary, content, data)
  return {
    ok: false,
    summary,
    content,
    data,
    error: { code: info.timedOut ? 'timed_out' : 'nonzero_exit', message: summary }
  }
}
