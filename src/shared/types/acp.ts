import { z } from 'zod'
import { PermissionRequest } from './permission'

/**
 * ACP (Agent Client Protocol) agents: external coding agents (Claude Code, Codex, Gemini CLI, …)
 * that we launch over stdio. These are the shapes main and the renderer share: agent views for
 * Settings › Agents, the protocol log, a chat's agent session state, and the normalized turn
 * events the chat loop consumes (our own union, not the SDK's wire types).
 */

/**
 * A chat whose model is an agent has `providerId: 'acp'` and `modelId: <agent id>`: its turns run
 * through the agent (`session/prompt`), not an LLM provider. Not a provider config: the picker
 * lists enabled agents beside the providers.
 */
export const ACP_PROVIDER_ID = 'acp'

/** The agent a chat's model names, or null when the model is an LLM's. */
export function agentOfModel(model: { providerId: string | null; modelId: string | null }): string | null {
  return model.providerId === ACP_PROVIDER_ID && model.modelId ? model.modelId : null
}

/** Agent ids appear in model ids and permission rules, so keep them plain. */
export const AcpAgentId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/, 'letters, digits, "_", "." and "-" only')

const EnvName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
export const AcpEnvMap = z.record(EnvName, z.string().max(20_000))
export type AcpEnvMap = z.infer<typeof AcpEnvMap>

// ---------------------------------------------------------------------------------------------
// Registry and agents

const LaunchArgs = z.array(z.string().max(4_000)).max(200)

/** How a registry agent is started: through npx, uvx, or a program on PATH. */
export const AcpDistribution = z
  .object({
    npx: z.object({ package: z.string().min(1), args: LaunchArgs.default([]) }).optional(),
    uvx: z.object({ package: z.string().min(1), args: LaunchArgs.default([]) }).optional(),
    binary: z.object({ command: z.string().min(1), args: LaunchArgs.default([]) }).optional()
  })
  .refine((d) => d.npx || d.uvx || d.binary, 'an agent needs at least one way to start')
export type AcpDistribution = z.output<typeof AcpDistribution>

export const AcpRegistryAgent = z.object({
  id: AcpAgentId,
  name: z.string().min(1).max(100),
  description: z.string().max(2_000).default(''),
  website: z.string().max(400).optional(),
  distribution: AcpDistribution
})
export type AcpRegistryAgent = z.output<typeof AcpRegistryAgent>

export const AcpRegistry = z.object({ version: z.literal(1), agents: z.array(AcpRegistryAgent) })
export type AcpRegistry = z.output<typeof AcpRegistry>

const customFields = {
  name: z.string().trim().min(1).max(100),
  command: z.string().trim().min(1).max(4_000),
  args: LaunchArgs,
  env: AcpEnvMap,
  description: z.string().max(2_000)
}

/** An agent the user adds by hand (Settings › Agents › Add). The id is derived from the name unless given. */
export const AcpCustomAgentInput = z
  .object({
    ...customFields,
    id: AcpAgentId.optional(),
    args: customFields.args.default([]),
    env: customFields.env.default({}),
    description: customFields.description.default('')
  })
  .strict()
export type AcpCustomAgentInput = z.input<typeof AcpCustomAgentInput>

export const AcpCustomAgentPatch = z
  .object(customFields)
  .partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, { message: 'patch must change at least one field' })
export type AcpCustomAgentPatch = z.input<typeof AcpCustomAgentPatch>

export const AcpAgentSource = z.enum(['registry', 'custom'])
export type AcpAgentSource = z.infer<typeof AcpAgentSource>

/** What starts the agent: its own program on PATH, npx, uvx, or the command the user typed. */
export const AcpLauncher = z.enum(['binary', 'npx', 'uvx', 'command'])
export type AcpLauncher = z.infer<typeof AcpLauncher>

/**
 * Whether the agent can start here. `installed`: its program is on the login-shell PATH;
 * `on_demand`: npx/uvx is there and fetches the package at the first start (needs the network);
 * `missing`: neither.
 */
export const AcpInstallState = z.object({
  status: z.enum(['installed', 'on_demand', 'missing']),
  launcher: AcpLauncher,
  command: z.string(),
  args: z.array(z.string()),
  /** The program's full path when found. */
  resolvedPath: z.string().nullable(),
  detail: z.string()
})
export type AcpInstallState = z.infer<typeof AcpInstallState>

export const AcpImplementation = z.object({
  name: z.string(),
  title: z.string().nullable(),
  version: z.string()
})

/** One running agent process: one per (agent, workspace), shared by the chats in that workspace. */
export const AcpProcessView = z.object({
  workspaceDir: z.string(),
  pid: z.number().int().nullable(),
  state: z.enum(['starting', 'running']),
  startedAt: z.number(),
  /** Chats with a session in this process. */
  sessions: z.number().int(),
  agentInfo: AcpImplementation.nullable()
})
export type AcpProcessView = z.infer<typeof AcpProcessView>

export const AcpAgentStatus = z.object({
  processes: z.array(AcpProcessView),
  /** Why the last process ended or failed to start (exit code or signal, last stderr line). */
  lastError: z.string().optional(),
  /** The last lines the most recent process wrote to stderr. */
  stderrTail: z.array(z.string())
})
export type AcpAgentStatus = z.infer<typeof AcpAgentStatus>

/** An agent as Settings shows it: secrets masked (`MASKED_SECRET`), with its live status. */
export const AcpAgentView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  source: AcpAgentSource,
  website: z.string().optional(),
  enabled: z.boolean(),
  /** The launch command as configured (custom) or preferred (registry); `acp.checkInstall` tells what runs here. */
  command: z.string(),
  args: z.array(z.string()),
  /** Custom agents' own env (secrets masked); empty for registry agents. */
  env: z.record(z.string(), z.string()),
  /** The user's overrides on top of the agent's env (secrets masked). */
  envOverrides: z.record(z.string(), z.string()),
  secretKeys: z.object({ env: z.array(z.string()), envOverrides: z.array(z.string()) }),
  status: AcpAgentStatus
})
export type AcpAgentView = z.infer<typeof AcpAgentView>

// ---------------------------------------------------------------------------------------------
// Protocol log (Settings › Agents › troubleshooting)

export const AcpLogEntry = z.object({
  /** Increasing per agent; ask for entries after the last one seen. */
  seq: z.number().int(),
  at: z.number(),
  workspaceDir: z.string(),
  /** `out`: we sent it; `in`: the agent sent it (stderr lines are `in`). */
  direction: z.enum(['out', 'in']),
  kind: z.enum(['request', 'response', 'notification', 'error', 'stderr']),
  method: z.string().optional(),
  id: z.union([z.string(), z.number()]).nullable().optional(),
  /** Size of the whole message in bytes. */
  bytes: z.number().int(),
  /** The params, result or error as JSON, secrets redacted, cut to a few hundred characters. */
  summary: z.string()
})
export type AcpLogEntry = z.infer<typeof AcpLogEntry>

// ---------------------------------------------------------------------------------------------
// A chat's session with an agent: modes, models, slash commands

export const AcpMode = z.object({ id: z.string(), name: z.string(), description: z.string().nullable() })
export const AcpModeState = z.object({ currentModeId: z.string(), availableModes: z.array(AcpMode) })
export type AcpModeState = z.infer<typeof AcpModeState>

export const AcpModel = z.object({ id: z.string(), name: z.string(), description: z.string().nullable() })
/**
 * The models an agent offers. `config_option`: a session config option of category `model`
 * (ACP's stable way; set through `session/set_config_option`); `session_model`: the older
 * `models` field that agents on earlier SDKs send (set through `session/set_model`).
 */
export const AcpModelState = z.object({
  currentModelId: z.string(),
  availableModels: z.array(AcpModel),
  via: z.enum(['config_option', 'session_model']),
  configId: z.string().optional()
})
export type AcpModelState = z.infer<typeof AcpModelState>

export const AcpCommand = z.object({
  name: z.string(),
  description: z.string(),
  inputHint: z.string().nullable()
})
export type AcpCommand = z.infer<typeof AcpCommand>

export const AcpConfigOption = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  category: z.string().nullable(),
  type: z.enum(['select', 'boolean']),
  currentValue: z.union([z.string(), z.boolean()]),
  options: z.array(z.object({ value: z.string(), name: z.string(), description: z.string().nullable() }))
})
export type AcpConfigOption = z.infer<typeof AcpConfigOption>

export const AcpSessionState = z.object({
  chatSessionId: z.string(),
  agentId: z.string(),
  /** The agent's own session id. */
  sessionId: z.string(),
  workspaceDir: z.string(),
  modes: AcpModeState.nullable(),
  models: AcpModelState.nullable(),
  commands: z.array(AcpCommand),
  configOptions: z.array(AcpConfigOption),
  title: z.string().nullable()
})
export type AcpSessionState = z.infer<typeof AcpSessionState>

// ---------------------------------------------------------------------------------------------
// Turn events: what a prompt streams, normalized from `session/update`

export const AcpContentItem = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), mimeType: z.string(), data: z.string() }),
  z.object({ type: z.literal('audio'), mimeType: z.string(), data: z.string() }),
  z.object({
    type: z.literal('resource_link'),
    uri: z.string(),
    name: z.string(),
    mimeType: z.string().nullable()
  }),
  z.object({
    type: z.literal('resource'),
    uri: z.string(),
    mimeType: z.string().nullable(),
    text: z.string().nullable()
  })
])
export type AcpContentItem = z.infer<typeof AcpContentItem>

export const AcpTerminalExit = z.object({ exitCode: z.number().nullable(), signal: z.string().nullable() })

export const AcpToolContent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('content'), content: AcpContentItem }),
  /** A file change the agent proposes or made; `oldText` null for a new file. */
  z.object({
    type: z.literal('diff'),
    path: z.string(),
    oldText: z.string().nullable(),
    newText: z.string()
  }),
  /** A terminal we run for the agent, with its output so far. */
  z.object({
    type: z.literal('terminal'),
    terminalId: z.string(),
    command: z.string().nullable(),
    output: z.string(),
    truncated: z.boolean(),
    exitStatus: AcpTerminalExit.nullable(),
    /** True when it ran in the OS sandbox (nobody approved it); false when it ran as approved on the host. */
    sandboxed: z.boolean()
  })
])
export type AcpToolContent = z.infer<typeof AcpToolContent>

export const AcpToolKind = z.enum([
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other'
])
export const AcpToolStatus = z.enum(['pending', 'in_progress', 'completed', 'failed'])

/** A tool call's whole state after every update so far (updates are merged, never partial). */
export const AcpToolCall = z.object({
  id: z.string(),
  title: z.string(),
  kind: AcpToolKind,
  status: AcpToolStatus,
  locations: z.array(z.object({ path: z.string(), line: z.number().nullable() })),
  content: z.array(AcpToolContent),
  rawInput: z.unknown().optional(),
  rawOutput: z.unknown().optional()
})
export type AcpToolCall = z.infer<typeof AcpToolCall>

/**
 * What a `tool_call` block of an agent's turn shows beyond the call itself (`data.acp`): the
 * agent's title and kind, the places it touches, its diffs and terminals (output cut at the front
 * to `ACP_BLOCK_OUTPUT_LIMIT`).
 */
export const AcpToolCallBlockData = z.object({
  agentId: z.string(),
  title: z.string(),
  kind: AcpToolKind,
  locations: z.array(z.object({ path: z.string(), line: z.number().nullable() })),
  content: z.array(AcpToolContent)
})
export type AcpToolCallBlockData = z.infer<typeof AcpToolCallBlockData>

/** How much of a terminal's output an agent's tool-call block keeps (the end of it). */
export const ACP_BLOCK_OUTPUT_LIMIT = 64_000

export const AcpPlanEntry = z.object({
  content: z.string(),
  priority: z.enum(['high', 'medium', 'low']),
  status: z.enum(['pending', 'in_progress', 'completed'])
})
export type AcpPlanEntry = z.infer<typeof AcpPlanEntry>

export const AcpStopReason = z.enum(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled'])
export type AcpStopReason = z.infer<typeof AcpStopReason>

export const AcpTurnEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('thought'), text: z.string() }),
  /** Non-text content in the answer (`message`) or the reasoning (`thought`): images, resources. */
  z.object({ type: z.literal('content'), role: z.enum(['message', 'thought']), content: AcpContentItem }),
  /** The whole plan: each event replaces the previous one. */
  z.object({ type: z.literal('plan'), entries: z.array(AcpPlanEntry) }),
  /** A tool call started (`start`) or changed (`update`); `call` is its whole merged state. */
  z.object({ type: z.literal('tool_call'), phase: z.enum(['start', 'update']), call: AcpToolCall }),
  z.object({ type: z.literal('mode'), modes: AcpModeState }),
  z.object({ type: z.literal('commands'), commands: z.array(AcpCommand) }),
  z.object({ type: z.literal('models'), models: AcpModelState }),
  z.object({ type: z.literal('config'), options: z.array(AcpConfigOption) }),
  z.object({ type: z.literal('usage'), used: z.number(), size: z.number() }),
  z.object({ type: z.literal('session_info'), title: z.string().nullable() }),
  z.object({
    type: z.literal('notice'),
    severity: z.string(),
    title: z.string(),
    description: z.string().nullable()
  }),
  /** Always the last event of a turn that ended normally or was cancelled. */
  z.object({ type: z.literal('stop'), stopReason: AcpStopReason })
])
export type AcpTurnEvent = z.infer<typeof AcpTurnEvent>

/** What the user is sent for a prompt. */
export const AcpPromptContent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), mimeType: z.string(), data: z.string() }),
  z.object({ type: z.literal('resource_link'), uri: z.string(), name: z.string() })
])
export type AcpPromptContent = z.infer<typeof AcpPromptContent>

// ---------------------------------------------------------------------------------------------
// Asking the user (the chat loop answers through its pause → card → resume path)

export const AcpPermissionOption = z.object({
  optionId: z.string(),
  name: z.string(),
  kind: z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always'])
})

/**
 * Something only the user may allow. `agent_tool`: the agent's own `session/request_permission`
 * for one of its tool calls. `boundary`: a file read/write or a terminal command the agent asked
 * us to run that our permission services did not let through on their own.
 */
export const AcpPermissionAsk = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('agent_tool'),
    chatSessionId: z.string(),
    agentId: z.string(),
    toolCall: AcpToolCall,
    options: z.array(AcpPermissionOption),
    /**
     * The ask as one of our permission requests (`type: 'mcp'`, server `acp:<agent>`, the tool's
     * kind as `originalTool`): what the card shows and what "Always allow" remembers
     * (`mcp: acp:<agent>/<kind>`).
     */
    request: PermissionRequest
  }),
  z.object({
    kind: z.literal('boundary'),
    chatSessionId: z.string(),
    agentId: z.string(),
    method: z.enum(['fs/read_text_file', 'fs/write_text_file', 'terminal/create']),
    request: PermissionRequest,
    /** The agent's tool call this belongs to, when it can be told. */
    toolCallId: z.string().nullable()
  })
])
export type AcpPermissionAsk = z.infer<typeof AcpPermissionAsk>

/** The user's answer. `allow_always` is meant to become a revocable rule (the chat loop stores it). */
export const AcpPermissionAnswer = z.enum(['allow_once', 'allow_always', 'reject'])
export type AcpPermissionAnswer = z.infer<typeof AcpPermissionAnswer>
