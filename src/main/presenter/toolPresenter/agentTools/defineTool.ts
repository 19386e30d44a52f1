import { z } from 'zod'
import type { PermissionMode, PermissionRequest } from '@shared/types/permission'
import type { ToolContentItem, ToolParametersSchema } from '@shared/types/tools'
import type { QuestionRequest } from '@shared/contracts/events/tools.events'
import type { FilePermissionService, FileAccess } from '../../permission/filePermissionService'
import type { CommandPermissionService } from '../../permission/commandPermissionService'
import type { AgentToolRuntimePort } from '../runtimePorts'
import type { BackgroundProcessManager } from './processManager'

export const FILESYSTEM_SERVER = 'agent-filesystem'
export const CORE_SERVER = 'agent-core'
export const TAPE_SERVER = 'agent-tape'
export const SKILLS_SERVER = 'agent-skills'
export const MEMORY_SERVER = 'agent-memory'
export const SETTINGS_SERVER = 'deepchat-settings'
export const IMAGE_SERVER = 'agent-image-generation'
export const SUBAGENTS_SERVER = 'agent-subagents'

export type AgentToolServer =
  | typeof FILESYSTEM_SERVER
  | typeof CORE_SERVER
  | typeof TAPE_SERVER
  | typeof SKILLS_SERVER
  | typeof MEMORY_SERVER
  | typeof SETTINGS_SERVER
  | typeof IMAGE_SERVER
  | typeof SUBAGENTS_SERVER

/**
 * Who sees a tool: `model` tools are offered by default; `diagnostic` ones only when the session
 * turns them on; `runtime` ones are never offered (the app calls them itself).
 */
export type ToolExposure = 'model' | 'diagnostic' | 'runtime'

/** What a tool's availability check may look at: the session and the runtime port. */
export interface ToolScope {
  sessionId: string
  runtime: AgentToolRuntimePort
}

/** Everything a tool may use while it runs. Tools reach sessions and tape only via `runtime`. */
export interface ToolContext {
  sessionId: string
  toolCallId: string
  /** The session's workspace folder; relative paths start here. */
  workspaceDir: string
  /** The session's own data folder (spilled output, background logs). */
  sessionDataDir: string
  permissionMode: PermissionMode
  /**
   * The call runs because someone approved it (an answer, a grant, a rule, full access), not
   * because it needed nothing: a command then runs as approved instead of in the sandbox.
   */
  approvedByUser: boolean
  signal?: AbortSignal
  /** Progress shown on the call's block while it runs (long tools such as subagent runs). */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void
  runtime: AgentToolRuntimePort
  files: FilePermissionService
  commands: CommandPermissionService
  processes: BackgroundProcessManager
}

export interface AgentToolResult {
  ok: boolean
  /** One line for the UI and the envelope. */
  summary: string
  /** What the model reads. */
  content: string | ToolContentItem[]
  data?: unknown
  error?: { code: string; message: string }
  /** A question the loop must turn into a pending interaction. */
  interaction?: { kind: 'question'; question: QuestionRequest }
}

export interface AgentTool<S extends z.ZodType = z.ZodType> {
  name: string
  server: AgentToolServer
  readOnly: boolean
  /** Default `model`. */
  exposure?: ToolExposure
  /** Whether the session can use the tool now (its port exists, the feature is on); default yes. */
  available?(scope: ToolScope): boolean
  description: string
  input: S
  /** JSON Schema of `input`, generated once. */
  parameters: ToolParametersSchema
  /**
   * Other spellings models commonly send (`yieldMs`, `oldText`), renamed to the canonical key
   * before validation when the canonical key is absent. Not shown in the schema.
   */
  aliases?: Record<string, string>
  /** Pure: what approval this call needs, or null. Never throws, never changes state. */
  checkPermission(args: z.output<S>, ctx: ToolContext): PermissionRequest | null
  execute(args: z.output<S>, ctx: ToolContext): Promise<AgentToolResult>
}

/** An expected failure with a code the model can act on (not found, not unique, ...). */
export class ToolError extends Error {
  constructor(
    readonly code: string,
    message: string
  ) {
    super(message)
    this.name = 'ToolError'
  }
}

export function defineAgentTool<S extends z.ZodType>(def: Omit<AgentTool<S>, 'parameters'>): AgentTool<S> {
  return { ...def, description: def.description.trim(), parameters: toToolParameters(def.input) }
}

/** Renames alias keys to their canonical names (the canonical key wins if both are present). */
export function applyAliases(args: Record<string, unknown>, aliases: Record<string, string> | undefined): Record<string, unknown> {
  if (!aliases) return args
  const out = { ...args }
  for (const [alias, canonical] of Object.entries(aliases)) {
    if (alias in out) {
      if (!(canonical in out)) out[canonical] = out[alias]
      delete out[alias]
    }
  }
  return out
}

export function ok(summary: string, content: string | ToolContentItem[], data?: unknown): AgentToolResult {
  return { ok: true, summary, content, data }
}

/** JSON Schema for the model: input shape (defaults make fields optional), no noise. */
export function toToolParameters(schema: z.ZodType): ToolParametersSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  delete json.$schema
  stripSafeIntegerBounds(json)
  if (json.type !== 'object') throw new Error('an agent tool input must be an object schema')
  return json as ToolParametersSchema
}

function stripSafeIntegerBounds(node: unknown): void {
  if (!node || typeof node !== 'object') return
  const record = node as Record<string, unknown>
  if (record.maximum === Number.MAX_SAFE_INTEGER) delete record.maximum
  if (record.minimum === Number.MIN_SAFE_INTEGER) delete record.minimum
  for (const value of Object.values(record)) {
    if (Array.isArray(value)) value.forEach(stripSafeIntegerBounds)
    else stripSafeIntegerBounds(value)
  }
}

/** The file scope for a permission check made by `tool`. */
export function checkFiles(ctx: ToolContext, tool: string, access: FileAccess, paths: string[]): PermissionRequest | null {
  return ctx.files.check(access, paths, {
    sessionId: ctx.sessionId,
    workspaceDir: ctx.workspaceDir,
    sessionDataDir: ctx.sessionDataDir,
    tool,
    server: FILESYSTEM_SERVER
  })
}

/** Absolute path the model meant (`~` expanded, relative to the workspace). */
export function resolvePath(ctx: ToolContext, path: string): string {
  return ctx.files.resolve(path, ctx.workspaceDir).requested
}
