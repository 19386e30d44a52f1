import { z } from 'zod'

/** JSON Schema of a tool's arguments, as sent to the model. */
export const ToolParametersSchema = z.looseObject({
  type: z.literal('object'),
  properties: z.record(z.string(), z.unknown()).default({}),
  required: z.array(z.string()).optional()
})
export type ToolParametersSchema = z.infer<typeof ToolParametersSchema>

export const ToolSource = z.enum(['mcp', 'agent'])
export type ToolSource = z.infer<typeof ToolSource>

/**
 * What the loop must know about a tool. Built-ins take these from their definition; MCP tools
 * from their `readOnlyHint` (a read-only MCP tool may also run in parallel).
 */
export const ToolFacts = z.object({
  /** The call changes nothing (files, processes, settings, session state, the tool list). */
  readOnly: z.boolean(),
  /** The call may run at the same time as the round's other parallel-safe calls. */
  parallelSafe: z.boolean(),
  /** `question`: the loop pauses for the user's answer instead of running the call like others. */
  interaction: z.literal('question').optional()
})
export type ToolFacts = z.infer<typeof ToolFacts>

/**
 * One tool in the flat list the model sees. `function.name` is the name exposed to the model
 * (possibly `<server>__<tool>` after a collision); `server` says where it came from, for the UI.
 */
export const MCPToolDefinition = z.object({
  type: z.literal('function'),
  source: ToolSource,
  function: z.object({
    name: z.string(),
    description: z.string(),
    parameters: ToolParametersSchema
  }),
  server: z.object({
    id: z.string(),
    name: z.string(),
    icon: z.string().optional(),
    description: z.string().optional()
  }),
  facts: ToolFacts,
  annotations: z
    .object({
      readOnlyHint: z.boolean().optional(),
      destructiveHint: z.boolean().optional(),
      idempotentHint: z.boolean().optional(),
      openWorldHint: z.boolean().optional(),
      title: z.string().optional()
    })
    .optional()
})
export type MCPToolDefinition = z.infer<typeof MCPToolDefinition>

/** A tool call as the model produced it: arguments are the raw JSON text. */
export interface MCPToolCall {
  id: string
  name: string
  arguments: string
}

export type ToolContentItem =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string; description?: string }

/** An image that is a call's answer (not, say, a file `read` showed the model). */
export interface ToolImage {
  mimeType: string
  /** Base64, no `data:` prefix. */
  data: string
  /** Where the tool saved it, if it did. */
  path?: string
}

/**
 * What a call changed for the app, beside its answer to the model. The loop and ToolPresenter
 * act on these; `data` in the envelope is for the model and the UI only.
 */
export interface ToolEffects {
  /** The session's tool list changed (a skill was activated, tools were switched): the next request offers the new list. */
  toolsChanged?: true
  /** Images shown after the call, as image blocks. */
  images?: ToolImage[]
}

/** The uniform envelope every tool result is reduced to (ARCHITECTURE.md section 8). */
export interface ToolResultEnvelope {
  ok: boolean
  summary: string
  data?: unknown
  error?: { code: string; message: string }
}
