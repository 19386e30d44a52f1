import { z } from 'zod'
import rememberDescription from './descriptions/memory_remember.md?raw'
import recallDescription from './descriptions/memory_recall.md?raw'
import forgetDescription from './descriptions/memory_forget.md?raw'
import {
  MEMORY_SERVER,
  ToolError,
  defineAgentTool,
  ok,
  type AgentTool,
  type AgentToolResult,
  type ToolContext,
  type ToolScope
} from './defineTool'
import type { MemoryPort } from '../runtimePorts'

const CATEGORIES = ['user_preference', 'project_fact', 'task_outcome', 'heuristic', 'anti_pattern'] as const

const rememberInput = z.strictObject({
  content: z.string().trim().min(1).max(4000).describe('One self-contained fact, preference or lesson'),
  kind: z
    .enum(['semantic', 'episodic'])
    .default('semantic')
    .describe('semantic: a lasting fact; episodic: what happened'),
  category: z.enum(CATEGORIES).optional(),
  importance: z.number().min(0).max(1).default(0.7).describe('0..1, how much it matters later')
})

const recallInput = z.strictObject({
  query: z.string().trim().min(1).max(500).describe('Words the memory would contain'),
  limit: z.number().int().min(1).max(20).default(8)
})

const forgetInput = z.strictObject({
  memoryId: z.string().trim().min(1).max(100).describe('The id from memory_recall')
})

const available = ({ runtime, sessionId }: ToolScope) =>
  !!runtime.memory && runtime.memory.isEnabled(sessionId)

/** Switched off after the tool list was built: say so plainly, as a result, not a crash. */
function withMemory(ctx: ToolContext, run: (memory: MemoryPort) => AgentToolResult): AgentToolResult {
  const memory = ctx.runtime.memory
  if (!memory || !memory.isEnabled(ctx.sessionId)) {
    return {
      ok: false,
      summary: 'Memory is disabled',
      content: 'Memory is disabled for this agent.',
      error: { code: 'memory_disabled', message: 'Memory is disabled for this agent.' }
    }
  }
  return run(memory)
}

export const memoryRememberTool = defineAgentTool({
  name: 'memory_remember',
  group: MEMORY_SERVER,
  labelKey: 'settingsAgentTools.labels.memory_remember',
  readOnly: false,
  parallelSafe: false,
  description: rememberDescription,
  input: rememberInput,
  available,
  checkPermission: () => null,
  async execute(args, ctx) {
    return withMemory(ctx, (memory) => {
      const outcome = memory.remember(ctx.sessionId, args)
      const text = JSON.stringify({ ok: outcome.action !== 'noop', ...outcome })
      return ok(`Memory ${outcome.action}: ${outcome.id}`, text, outcome)
    })
  }
})

export const memoryRecallTool = defineAgentTool({
  name: 'memory_recall',
  group: MEMORY_SERVER,
  labelKey: 'settingsAgentTools.labels.memory_recall',
  readOnly: true,
  parallelSafe: true,
  description: recallDescription,
  input: recallInput,
  available,
  checkPermission: () => null,
  async execute(args, ctx) {
    return withMemory(ctx, (memory) => {
      const memories = memory
        .recall(ctx.sessionId, args.query, args.limit)
        .map((m) => ({ id: m.id, kind: m.kind, category: m.category, content: m.content }))
      return ok(
        `${memories.length} memor${memories.length === 1 ? 'y' : 'ies'} recalled`,
        JSON.stringify({ memories }, null, 2),
        { memories }
      )
    })
  }
})

export const memoryForgetTool = defineAgentTool({
  name: 'memory_forget',
  group: MEMORY_SERVER,
  labelKey: 'settingsAgentTools.labels.memory_forget',
  readOnly: false,
  parallelSafe: false,
  description: forgetDescription,
  input: forgetInput,
  available,
  checkPermission: () => null,
  async execute(args, ctx) {
    return withMemory(ctx, (memory) => {
      if (!memory.forget(ctx.sessionId, args.memoryId))
        throw new ToolError('not_found', `No memory ${args.memoryId}. Use memory_recall to find ids.`)
      return ok(`Forgot ${args.memoryId}`, JSON.stringify({ ok: true, memoryId: args.memoryId }))
    })
  }
})

export const memoryTools: AgentTool[] = [
  memoryRememberTool,
  memoryRecallTool,
  memoryForgetTool
] as AgentTool[]
