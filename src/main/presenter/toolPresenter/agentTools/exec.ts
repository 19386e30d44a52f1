import { stat } from 'node:fs/promises'
import { z } from 'zod'
import description from './descriptions/exec.md?raw'
import { FILESYSTEM_SERVER, ToolError, defineAgentTool, ok, pathArg, resolvePath, type ToolContext } from './defineTool'
import { TAIL_CHARS } from './processManager'

export const EXEC_DEFAULT_TIMEOUT_MS = 120_000
export const EXEC_MAX_TIMEOUT_MS = 600_000
export const EXEC_DEFAULT_YIELD_MS = 10_000

const input = z.strictObject({
  command: z.string().trim().min(1).describe('The shell command line to run'),
  cwd: pathArg.optional().describe('Working directory (default: the workspace)'),
  timeout_ms: z.number().int().min(100).max(EXEC_MAX_TIMEOUT_MS).optional().describe(`Kill the command after this many ms (default ${EXEC_DEFAULT_TIMEOUT_MS}; none for background)`),
  yield_ms: z.number().int().min(100).max(EXEC_MAX_TIMEOUT_MS).default(EXEC_DEFAULT_YIELD_MS).describe('Return a process id if still running after this many ms'),
  background: z.boolean().default(false).describe('Start and return at once (servers, watchers)'),
  description: z.string().max(200).optional().describe('A few words on what the command does, shown to the user')
})

export const execTool = defineAgentTool({
  name: 'exec',
  server: FILESYSTEM_SERVER,
  readOnly: false,
  description,
  input,
  aliases: { timeoutMs: 'timeout_ms', timeout: 'timeout_ms', yieldMs: 'yield_ms', workdir: 'cwd' },
  checkPermission(args, ctx) {
    return ctx.commands.check(
      args.command,
      { sessionId: ctx.sessionId, workspaceDir: ctx.workspaceDir, cwd: workingDir(ctx, args.cwd), tool: 'exec', server: FILESYSTEM_SERVER },
      ctx.permissionMode
    )
  },
  async execute(args, ctx) {
    const cwd = workingDir(ctx, args.cwd)
    const info = await stat(cwd).catch(() => null)
    if (!info?.isDirectory()) {
      throw new ToolError('cwd_not_found', `Working directory does not exist or is not a folder: ${cwd}. Update the session workspace or pass an existing cwd.`)
    }
    const timeoutMs = args.timeout_ms ?? (args.background ? undefined : EXEC_DEFAULT_TIMEOUT_MS)
    const started = await ctx.processes.start({
      sessionId: ctx.sessionId,
      command: args.command,
      cwd,
      logDir: ctx.sessionDataDir,
      timeoutMs,
      keepStdin: args.background,
      onChange: (p) =>
        ctx.runtime.notifyProcessChanged?.({ sessionId: ctx.sessionId, processId: p.processId, command: p.command, status: p.status, exitCode: p.exitCode })
    })
    if (args.background) return running(started.processId, args.command, 'started in the background')
    const outcome = await ctx.processes.waitForExitOrYield(ctx.sessionId, started.processId, args.yield_ms, ctx.signal)
    if (outcome === 'aborted') {
      await ctx.processes.remove(ctx.sessionId, started.processId)
      throw new ToolError('aborted', 'The command was cancelled and its processes were killed')
    }
    if (outcome === 'yielded') return running(started.processId, args.command, `still running after ${args.yield_ms} ms`)
    return finished(ctx, started.processId)
  }
})

function workingDir(ctx: ToolContext, cwd: string | undefined): string {
  return cwd && cwd.trim() ? resolvePath(ctx, cwd) : resolvePath(ctx, '.')
}

function running(processId: string, command: string, state: string) {
  const text = JSON.stringify({ status: 'running', process_id: processId })
  return ok(`${command} ${state} (${processId})`, `${text}\nThe command is ${state}. Use the process tool (poll, log, kill) with process_id ${processId}.`, {
    status: 'running',
    processId
  })
}

function finished(ctx: ToolContext, processId: string) {
  const info = ctx.processes.info(ctx.sessionId, processId)
  const tail = ctx.processes.tail(ctx.sessionId, processId, TAIL_CHARS)
  // A spilled log stays available through `process log`; a small finished run is forgotten.
  if (!info.logFile) ctx.processes.forget(ctx.sessionId, processId)
  const lines = [tail.trimEnd()]
  if (info.outputLength > tail.length) lines.unshift(`[… ${info.outputLength - tail.length} earlier characters not shown]`)
  lines.push(`Exit code: ${info.exitCode ?? 'none'}`)
  if (info.timedOut) lines.push('Timed out: the process tree was killed')
  if (info.logFile) lines.push(`Full output (${info.outputLength} characters): ${info.logFile}`)
  const content = lines.filter((l) => l !== '').join('\n')
  const success = info.exitCode === 0 && !info.timedOut
  const summary = info.timedOut ? `${info.command} timed out` : `${info.command} exited with ${info.exitCode ?? 'no code'}`
  const data = { exitCode: info.exitCode, timedOut: info.timedOut, outputLength: info.outputLength, logFile: info.logFile }
  if (success) return ok(summary, content, data)
  return {
    ok: false,
    summary,
    content,
    data,
    error: { code: info.timedOut ? 'timed_out' : 'nonzero_exit', message: summary }
  }
}
