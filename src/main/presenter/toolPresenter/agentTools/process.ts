import { z } from 'zod'
import { TOOL } from '@shared/builtinTools'
import description from './descriptions/process.md?raw'
import { FILESYSTEM_SERVER, ToolError, defineAgentTool, ok } from './defineTool'
import { ProcessError } from './processManager'
import { INTERPRETERS } from '../../permission/commandTables'

export const PROCESS_POLL_CHARS = 2_000
export const PROCESS_LOG_DEFAULT_LIMIT = 10_000

const input = z
  .strictObject({
    action: z.enum(['list', 'poll', 'log', 'write', 'kill', 'clear', 'remove']),
    process_id: z.string().optional().describe('The id exec returned; required except for list'),
    offset: z.number().int().min(0).default(0).describe('log: first character'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(PROCESS_LOG_DEFAULT_LIMIT)
      .describe('log: number of characters'),
    data: z.string().optional().describe('write: text to send to stdin'),
    eof: z.boolean().default(false).describe('write: close stdin afterwards')
  })
  .refine((a) => a.action === 'list' || !!a.process_id, {
    message: 'process_id is required for this action',
    path: ['process_id']
  })

export const processTool = defineAgentTool({
  name: TOOL.process,
  group: FILESYSTEM_SERVER,
  labelKey: 'settingsAgentTools.labels.process',
  readOnly: false,
  parallelSafe: false,
  description,
  input,
  aliases: { sessionId: 'process_id', session_id: 'process_id', processId: 'process_id' },
  checkPermission(args, ctx) {
    // Text written into a running shell or REPL is a command line: check it like exec does.
    if (args.action !== 'write' || !args.data || !args.process_id) return null
    let info
    try {
      info = ctx.processes.info(ctx.sessionId, args.process_id)
    } catch {
      return null
    }
    const program = info.command.trim().split(/\s+/)[0]?.split('/').pop() ?? ''
    if (!INTERPRETERS.has(program)) return null
    // Input to a sandboxed process stays in the sandbox; input to a host process runs on the host.
    const scope = {
      sessionId: ctx.sessionId,
      workspaceDir: ctx.workspaceDir,
      cwd: info.cwd,
      tool: 'process',
      server: FILESYSTEM_SERVER
    }
    return ctx.commands.check(args.data, scope, ctx.permissionMode, info.sandboxed && ctx.sandboxAvailable)
  },
  async execute(args, ctx) {
    const { sessionId, processes } = ctx
    const id = args.process_id ?? ''
    try {
      switch (args.action) {
        case 'list': {
          const list = processes.list(sessionId)
          return ok(`${list.length} process(es)`, JSON.stringify({ processes: list }, null, 2), {
            processes: list
          })
        }
        case 'poll': {
          const info = processes.info(sessionId, id)
          const output = processes.tail(sessionId, id, PROCESS_POLL_CHARS)
          const result = { ...info, output }
          return ok(`${id} is ${info.status}`, JSON.stringify(result, null, 2), result)
        }
        case 'log': {
          const info = processes.info(sessionId, id)
          const window = processes.log(sessionId, id, args.offset, args.limit)
          const result = { status: info.status, exitCode: info.exitCode, offset: args.offset, ...window }
          return ok(
            `${id}: ${window.output.length} of ${window.totalLength} characters`,
            JSON.stringify(result, null, 2),
            result
          )
        }
        case 'write':
          processes.write(sessionId, id, args.data ?? '', args.eof)
          return ok(`Wrote to ${id}`, JSON.stringify({ status: 'ok', process_id: id }))
        case 'kill': {
          const info = await processes.kill(sessionId, id)
          return ok(
            `Killed ${id}`,
            JSON.stringify({ status: info.status, process_id: id, exitCode: info.exitCode })
          )
        }
        case 'clear':
          processes.clear(sessionId, id)
          return ok(`Cleared the output of ${id}`, JSON.stringify({ status: 'ok', process_id: id }))
        case 'remove':
          await processes.remove(sessionId, id)
          return ok(`Removed ${id}`, JSON.stringify({ status: 'ok', process_id: id }))
      }
    } catch (error) {
      if (error instanceof ProcessError) throw new ToolError(error.code, error.message)
      throw error
    }
  }
})
