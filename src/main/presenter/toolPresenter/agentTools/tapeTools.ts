import { z } from 'zod'
import { TapeEntryKind } from '@shared/types/tape'
import searchDescription from './descriptions/tape_search.md?raw'
import contextDescription from './descriptions/tape_context.md?raw'
import infoDescription from './descriptions/tape_info.md?raw'
import anchorsDescription from './descriptions/tape_anchors.md?raw'
import handoffDescription from './descriptions/tape_handoff.md?raw'
import { TAPE_SERVER, ToolError, defineAgentTool, ok, type AgentTool } from './defineTool'
import type { AgentToolRuntimePort } from '../runtimePorts'

/** Epoch milliseconds or an ISO date; anything else is a validation error the model can read. */
const TimeBound = z.union([z.number().int().nonnegative(), z.iso.datetime({ offset: true }), z.iso.date()])

const searchInput = z.strictObject({
  query: z.string().trim().min(1).max(500).describe("Words to look for in this session's history"),
  limit: z.number().int().min(1).max(50).default(20).describe('At most this many hits (1..50)'),
  kinds: z.array(TapeEntryKind).min(1).optional().describe('Only these entry kinds'),
  start: TimeBound.optional().describe('Only entries at or after this time (ISO date or epoch ms)'),
  end: TimeBound.optional().describe('Only entries at or before this time (ISO date or epoch ms)')
})

const contextInput = z.strictObject({
  entryIds: z
    .array(z.number().int().positive())
    .min(1)
    .max(20)
    .describe('Entry ids from tape_search (1..20)'),
  before: z.number().int().min(0).max(20).default(2).describe('Neighbours before each entry'),
  after: z.number().int().min(0).max(20).default(2).describe('Neighbours after each entry'),
  limit: z.number().int().min(1).max(100).default(50),
  maxBytesPerEntry: z.number().int().min(64).max(8192).default(2048),
  maxTotalBytes: z.number().int().min(256).max(65536).default(16384)
})

const anchorsInput = z.strictObject({ limit: z.number().int().min(1).max(50).default(20) })

const handoffInput = z.strictObject({
  name: z.string().trim().max(120).default('manual').describe('Anchor name; stored as handoff/<name>'),
  summary: z.string().max(20_000).default('').describe('What the next context must know')
})

const json = (value: unknown) => JSON.stringify(value, null, 2)

function requirePort<K extends keyof AgentToolRuntimePort>(
  runtime: AgentToolRuntimePort,
  key: K
): NonNullable<AgentToolRuntimePort[K]> {
  const member = runtime[key]
  if (!member) throw new ToolError('unavailable', 'The tape is not available in this session.')
  return (typeof member === 'function' ? member.bind(runtime) : member) as NonNullable<
    AgentToolRuntimePort[K]
  >
}

export const tapeSearchTool = defineAgentTool({
  name: 'tape_search',
  group: TAPE_SERVER,
  labelKey: 'settingsAgentTools.labels.tape_search',
  readOnly: true,
  parallelSafe: true,
  description: searchDescription,
  input: searchInput,
  available: ({ runtime }) => !!runtime.searchTape,
  checkPermission: () => null,
  async execute(args, ctx) {
    if (args.start !== undefined && args.end !== undefined && toMs(args.start) > toMs(args.end)) {
      throw new ToolError('invalid_range', 'start is after end')
    }
    const search = requirePort(ctx.runtime, 'searchTape')
    const hits = await search(ctx.sessionId, args.query, {
      limit: args.limit,
      kinds: args.kinds,
      start: args.start,
      end: args.end
    })
    return ok(`${hits.length} tape hit(s) for "${args.query}"`, json(hits), { hits })
  }
})

export const tapeContextTool = defineAgentTool({
  name: 'tape_context',
  group: TAPE_SERVER,
  labelKey: 'settingsAgentTools.labels.tape_context',
  readOnly: true,
  parallelSafe: true,
  description: contextDescription,
  input: contextInput,
  available: ({ runtime }) => !!runtime.getTapeContext,
  checkPermission: () => null,
  async execute(args, ctx) {
    const context = await requirePort(ctx.runtime, 'getTapeContext')(ctx.sessionId, args.entryIds, {
      before: args.before,
      after: args.after,
      limit: args.limit,
      maxBytesPerEntry: args.maxBytesPerEntry,
      maxTotalBytes: args.maxTotalBytes
    })
    const matched = (context as { matchedEntryIds?: number[] }).matchedEntryIds ?? []
    if (matched.length === 0)
      throw new ToolError(
        'not_found',
        `No tape entries with ids ${args.entryIds.join(', ')} in this session.`
      )
    return ok(
      `Context for ${matched.length} tape entr${matched.length === 1 ? 'y' : 'ies'}`,
      json(context),
      context
    )
  }
})

export const tapeInfoTool = defineAgentTool({
  name: 'tape_info',
  group: TAPE_SERVER,
  labelKey: 'settingsAgentTools.labels.tape_info',
  readOnly: true,
  parallelSafe: true,
  exposure: 'diagnostic',
  description: infoDescription,
  input: z.strictObject({}),
  available: ({ runtime }) => !!runtime.getTapeInfo,
  checkPermission: () => null,
  async execute(_args, ctx) {
    const info = await requirePort(ctx.runtime, 'getTapeInfo')(ctx.sessionId)
    return ok('Tape info', json(info), info)
  }
})

export const tapeAnchorsTool = defineAgentTool({
  name: 'tape_anchors',
  group: TAPE_SERVER,
  labelKey: 'settingsAgentTools.labels.tape_anchors',
  readOnly: true,
  parallelSafe: true,
  exposure: 'diagnostic',
  description: anchorsDescription,
  input: anchorsInput,
  available: ({ runtime }) => !!runtime.listTapeAnchors,
  checkPermission: () => null,
  async execute(args, ctx) {
    const anchors = await requirePort(ctx.runtime, 'listTapeAnchors')(ctx.sessionId, args.limit)
    const view = anchors.map((a) => ({ name: a.name, entryId: a.entryId, createdAt: a.createdAt }))
    return ok(`${view.length} anchor(s)`, json(view), { anchors: view })
  }
})

/** Runtime-only: the app (not the model) cuts the context with it, e.g. from a command. */
export const tapeHandoffTool = defineAgentTool({
  name: 'tape_handoff',
  group: TAPE_SERVER,
  labelKey: 'settingsAgentTools.labels.tape_handoff',
  readOnly: false,
  parallelSafe: false,
  exposure: 'runtime',
  description: handoffDescription,
  input: handoffInput,
  available: ({ runtime }) => !!runtime.handoffTape,
  checkPermission: () => null,
  async execute(args, ctx) {
    const name = /^(auto_)?handoff\//.test(args.name) ? args.name : `handoff/${args.name || 'manual'}`
    const anchor = await requirePort(ctx.runtime, 'handoffTape')(ctx.sessionId, name, args.summary)
    return ok(`Handoff ${name} at entry ${anchor.entryId}`, json({ name, entryId: anchor.entryId }), {
      name,
      entryId: anchor.entryId
    })
  }
})

export const tapeTools: AgentTool[] = [
  tapeSearchTool,
  tapeContextTool,
  tapeInfoTool,
  tapeAnchorsTool,
  tapeHandoffTool
] as AgentTool[]

function toMs(bound: number | string): number {
  return typeof bound === 'number' ? bound : Date.parse(bound)
}
