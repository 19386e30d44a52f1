import { z } from 'zod'
import { builtinToolFacts, type BuiltinToolFacts } from '@shared/builtinTools'
import type { PermissionMode, PermissionRequest } from '@shared/types/permission'
import type { ToolContentItem, ToolEffects, ToolParametersSchema } from '@shared/types/tools'
import type { QuestionRequest } from '@shared/contracts/events/tools.events'
import type { FilePermissionService, FileAccess, FileScope } from '../../permission/filePermissionService'
import type { CommandPermissionService } from '../../permission/commandPermissionService'
import type { AgentToolRuntimePort, ChatTurns } from '../runtimePorts'
import type { ToolSearchPort } from '../deferredTools'
import type { BackgroundProcessManager } from './processManager'
import type { ShellCaptures } from './shellChanges'
import type { CommandPreviews } from '../../commandPreview'

export const FILESYSTEM_SERVER = 'agent-filesystem'
export const CORE_SERVER = 'agent-core'
export const TAPE_SERVER = 'agent-tape'
export const SKILLS_SERVER = 'agent-skills'
export const MEMORY_SERVER = 'agent-memory'
export const SETTINGS_SERVER = 'deepchat-settings'
export const IMAGE_SERVER = 'agent-image-generation'
export const SUBAGENTS_SERVER = 'agent-subagents'
export const WEB_SERVER = 'agent-web'
export const KNOWLEDGE_SERVER = 'agent-knowledge'

/** How the settings page and the chat's tools popover group built-ins; also the `server` a permission request names. */
export type AgentToolGroup =
  | typeof FILESYSTEM_SERVER
  | typeof CORE_SERVER
  | typeof TAPE_SERVER
  | typeof SKILLS_SERVER
  | typeof MEMORY_SERVER
  | typeof SETTINGS_SERVER
  | typeof IMAGE_SERVER
  | typeof SUBAGENTS_SERVER
  | typeof WEB_SERVER
  | typeof KNOWLEDGE_SERVER

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
  signal?: AbortSignal
  /** Progress shown on the call's block while it runs (long tools such as subagent runs). */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void
  /** The chat loop running this call (absent outside a turn): subagent runs start turns on it. */
  turns?: ChatTurns
  runtime: AgentToolRuntimePort
  files: FilePermissionService
  commands: CommandPermissionService
  /**
   * The request the permission gate allowed for this call (null: none was needed; absent: the
   * call did not go through the gate). File tools re-check their paths against it when they run;
   * exec runs an approved command as approved and an unapproved one in the sandbox.
   */
  approved?: PermissionRequest | null
  /** Whether the OS sandbox works here (unasked commands run in it; `sandboxed` mode needs it). */
  sandboxAvailable: boolean
  processes: BackgroundProcessManager
  /** What foreground shell commands change in the workspace, for the turn's checkpoint. */
  shellCaptures: ShellCaptures
  /** Previews of commands waiting for approval: an approved one applies its preview's changes. */
  commandPreviews?: Pick<CommandPreviews, 'applyApproved'>
  /** This session's deferred MCP tools, when its catalog is too big to send (see `tool_search`). */
  toolSearch?: ToolSearchPort
}

export interface AgentToolResult {
  ok: boolean
  /** One line for the UI and the envelope. */
  summary: string
  /** What the model reads. */
  content: string | ToolContentItem[]
  /** Structured result for the UI and the envelope (never read by the app for side effects). */
  data?: unknown
  error?: { code: string; message: string }
  /** What the call changed beside its answer (tool list, images to show). */
  effects?: ToolEffects
  /** A question the loop must turn into a pending interaction. */
  interaction?: { kind: 'question'; question: QuestionRequest }
}

/**
 * A built-in tool and every fact about it. Dispatch, the system prompt, reserved names, the
 * settings catalog and the tool list the model sees all read these; nothing keeps a list of its own.
 */
export interface AgentTool<S extends z.ZodType = z.ZodType> extends BuiltinToolFacts {
  name: string
  group: AgentToolGroup
  /** i18n key of the tool's friendly name in the UI (`settingsAgentTools.labels.<name>`). */
  labelKey: string
  /**
   * True only when a call changes nothing: no files, processes, memories or settings, no
   * session state (plan, pending question) and not the tool list.
   */
  readOnly: boolean
  /** Calls may run at the same time as the round's other parallel-safe calls. */
  parallelSafe: boolean
  /** `question`: the call asks the user; the loop pauses for the answer instead of running it like others. */
  interaction?: 'question'
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
  /**
   * Pure: why this call may never run, whatever the mode, grants and rules (the app's secrets
   * file), or null. Checked before `checkPermission`; never throws.
   */
  refuse?(args: z.output<S>, ctx: ToolContext): ToolError | null
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

/** A tool's view, checkpoint and prompt facts come from `@shared/builtinTools`, which the UI reads too. */
export function defineAgentTool<S extends z.ZodType>(
  def: Omit<AgentTool<S>, 'parameters' | keyof BuiltinToolFacts>
): AgentTool<S> {
  return {
    ...def,
    ...builtinToolFacts(def.name),
    description: def.description.trim(),
    parameters: toToolParameters(def.input)
  }
}

/** Renames alias keys to their canonical names (the canonical key wins if both are present). */
export function applyAliases(
  args: Record<string, unknown>,
  aliases: Record<string, string> | undefined
): Record<string, unknown> {
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

/** Longest path a tool accepts (PATH_MAX on Linux). */
export const MAX_PATH_CHARS = 4096
/** Longest single name in a path (NAME_MAX, in bytes). */
export const MAX_NAME_BYTES = 255

/** Why `value` cannot be a path, or null. */
export function pathProblem(value: string): string | null {
  if (value.trim() === '') return 'must not be empty or only spaces'
  if (value.includes('\0')) return 'contains a NUL byte'
  if (value.length > MAX_PATH_CHARS) return `is longer than ${MAX_PATH_CHARS} characters`
  // eslint-disable-next-line no-control-regex
  const control = /[\x01-\x1f\x7f]/.exec(value)
  if (control)
    return `contains a control character (U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})`
  const long = value.split(/[\\/]/).find((name) => Buffer.byteLength(name) > MAX_NAME_BYTES)
  if (long !== undefined) return `has a name longer than ${MAX_NAME_BYTES} bytes (${long.slice(0, 40)}…)`
  return null
}

/** Every tool argument that names a file or folder (read, write, edit, glob and grep roots, exec cwd). */
export const pathArg = z.string().superRefine((value, issue) => {
  const problem = pathProblem(value)
  if (problem) issue.addIssue({ code: 'custom', message: `not a usable path: ${problem}` })
})

/** The file scope for a permission check made by `tool`. */
export function fileScope(ctx: ToolContext, tool: string): FileScope {
  return {
    sessionId: ctx.sessionId,
    workspaceDir: ctx.workspaceDir,
    sessionDataDir: ctx.sessionDataDir,
    tool,
    server: FILESYSTEM_SERVER
  }
}

/** The permission request for `tool` touching `paths`, or null. */
export function checkFiles(
  ctx: ToolContext,
  tool: string,
  access: FileAccess,
  paths: string[]
): PermissionRequest | null {
  return ctx.files.check(access, paths, fileScope(ctx, tool))
}

/** A refusal when any of `paths` is the app's secrets file (no approval can allow it). */
export function refuseFiles(ctx: ToolContext, tool: string, paths: string[]): ToolError | null {
  const message = ctx.files.refusal(paths, fileScope(ctx, tool))
  return message ? new ToolError('secrets_file', message) : null
}

/** Absolute path the model meant (`~` expanded, relative to the workspace). */
export function resolvePath(ctx: ToolContext, path: string): string {
  return ctx.files.resolve(path, ctx.workspaceDir).requested
}
