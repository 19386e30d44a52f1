import { z } from 'zod'
import { TOOL } from '@shared/builtinTools'
import description from './descriptions/subagent_orchestrator.md?raw'
import type { SubagentRunView } from '@shared/types/subagents'
import {
  SUBAGENTS_SERVER,
  ToolError,
  defineAgentTool,
  ok,
  type AgentToolResult,
  type ToolContext
} from './defineTool'
import type { SubagentPort } from '../runtimePorts'
import { finalMarkdown, progressMarkdown } from './subagentFormat'

const TERMINAL = new Set(['completed', 'error', 'cancelled', 'timeout'])
const DEFAULT_WAIT_MS = 60_000

const task = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/)
    .optional()
    .describe('Optional task id (default task-<n>)'),
  slotId: z.string().min(1).max(40).describe('Subagent slot, e.g. "self"'),
  title: z.string().trim().min(1).max(200).describe('Short title shown to the user'),
  prompt: z.string().trim().min(1).max(50_000).describe('Everything the subagent needs to do the task'),
  expectedOutput: z.string().trim().max(5_000).optional().describe('What the final answer must contain')
})

const input = z
  .strictObject({
    operation: z.enum(['run', 'list', 'info', 'log', 'wait', 'kill']).default('run'),
    mode: z
      .enum(['parallel', 'chain'])
      .optional()
      .describe('run: parallel, or chain (each result goes to the next task)'),
    tasks: z.array(task).min(1).max(5).optional().describe('run: 1 to 5 tasks'),
    background: z.boolean().default(false).describe('run: return a runId at once instead of waiting'),
    runId: z.string().min(1).max(100).optional().describe('info, log, wait, kill: the run'),
    timeoutMs: z
      .number()
      .int()
      .min(1)
      .max(3_600_000)
      .optional()
      .describe('run: foreground timeout; wait: how long to wait')
  })
  .superRefine((args, ctx) => {
    if (args.operation === 'run') {
      if (!args.mode)
        ctx.addIssue({ code: 'custom', path: ['mode'], message: 'run needs mode (parallel or chain)' })
      if (!args.tasks) ctx.addIssue({ code: 'custom', path: ['tasks'], message: 'run needs 1 to 5 tasks' })
    } else if (args.operation !== 'list' && !args.runId) {
      ctx.addIssue({ code: 'custom', path: ['runId'], message: `${args.operation} needs runId` })
    }
  })

type Args = z.output<typeof input>

export const subagentOrchestratorTool = defineAgentTool({
  name: TOOL.subagentOrchestrator,
  group: SUBAGENTS_SERVER,
  labelKey: 'settingsAgentTools.labels.subagent_orchestrator',
  readOnly: false,
  parallelSafe: false,
  description,
  input,
  available: ({ runtime, sessionId }) => !!runtime.subagents && runtime.subagents.available(sessionId),
  // Starting children asks nothing by itself: each child asks for what it does, in its own right.
  checkPermission: () => null,
  async execute(args, ctx) {
    const port = ctx.runtime.subagents
    if (!port || !port.available(ctx.sessionId)) {
      throw new ToolError(
        'unavailable',
        'subagent_orchestrator is only available in regular sessions with subagents enabled.'
      )
    }
    try {
      return await dispatch(port, args, ctx)
    } catch (error) {
      if (error instanceof ToolError) throw error
      const code = (error as { code?: unknown }).code
      throw new ToolError(
        typeof code === 'string' ? code : 'subagent_failed',
        error instanceof Error ? error.message : String(error)
      )
    }
  }
})

async function dispatch(port: SubagentPort, args: Args, ctx: ToolContext): Promise<AgentToolResult> {
  switch (args.operation) {
    case 'run':
      return run(port, args, ctx)
    case 'list': {
      const runs = port.list(ctx.sessionId)
      const lines = runs.map((r) => `- ${r.runId} · ${r.mode} · ${r.tasks.length} task(s) · ${r.status}`)
      return ok(`${runs.length} subagent run(s)`, lines.join('\n') || 'No subagent runs in this session.', {
        runs
      })
    }
    case 'info': {
      const view = port.info(ctx.sessionId, args.runId!)
      return ok(`Run ${view.runId}: ${view.status}`, progressMarkdown(view), { run: view })
    }
    case 'log':
      return finalResult(port.info(ctx.sessionId, args.runId!))
    case 'wait': {
      const { run, finished } = await port.wait(
        ctx.sessionId,
        args.runId!,
        args.timeoutMs ?? DEFAULT_WAIT_MS,
        ctx.signal
      )
      return finished
        ? finalResult(run)
        : ok(`Run ${run.runId} is still ${run.status}`, progressMarkdown(run), { run })
    }
    case 'kill':
      return finalResult(await port.kill(ctx.sessionId, args.runId!))
  }
}

async function run(port: SubagentPort, args: Args, ctx: ToolContext): Promise<AgentToolResult> {
  const report = (view: SubagentRunView) => {
    const done = view.tasks.filter((t) => TERMINAL.has(t.status)).length
    ctx.onProgress?.({ progress: done, total: view.tasks.length, message: progressMarkdown(view) })
  }
  // Children's turns run on the loop running this call; outside a turn there is none to run them.
  if (!ctx.turns)
    throw new ToolError('unavailable', 'subagent_orchestrator starts runs only from a chat turn.')
  const view = await port.run(
    ctx.sessionId,
    { mode: args.mode!, tasks: args.tasks!, background: args.background, timeoutMs: args.timeoutMs },
    { turns: ctx.turns, signal: ctx.signal, onProgress: report }
  )
  if (args.background) {
    return ok(
      `Subagent run started: ${view.runId}`,
      `Subagent run started: ${view.runId}. Use operation "wait" or "log" with this runId for results.`,
      { run: view }
    )
  }
  if (ctx.signal?.aborted) throw new ToolError('cancelled', 'subagent_orchestrator cancelled.')
  return finalResult(view)
}

function finalResult(view: SubagentRunView): AgentToolResult {
  const result = ok(`Run ${view.runId}: ${view.status}`, finalMarkdown(view), { run: view })
  if (view.status === 'completed' || !TERMINAL.has(view.status)) return result
  return {
    ...result,
    ok: false,
    error: { code: `subagents_${view.status}`, message: view.error ?? `The run ended as ${view.status}` }
  }
}
