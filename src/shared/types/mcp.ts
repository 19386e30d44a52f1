import { z } from 'zod'

export const McpServerType = z.enum(['stdio', 'sse', 'http', 'inmemory'])
export type McpServerType = z.infer<typeof McpServerType>

export const DEFAULT_MCP_TIMEOUT_MS = 60_000

/** Shown instead of a secret value in every route output; sending it back keeps the stored secret. */
export const MASKED_SECRET = '••••••••'

const StringMap = z.record(z.string().min(1).max(200), z.string().max(20_000))

/** Server ids appear in permission rules (`mcp: server/tool`) and tool prefixes, so keep them plain. */
export const McpServerId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/, 'letters, digits, "_", "." and "-" only')

/**
 * The short, stable name a server's tools are exposed under (`<slug>__<tool>`). Set when the
 * server is added, unique, editable (renaming it renames every tool the model sees). Words of
 * letters and digits joined by single `-` or `_`, so `__` only ever separates slug and tool.
 */
export const McpServerSlug = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[a-zA-Z0-9]+(?:[-_][a-zA-Z0-9]+)*$/, 'letters and digits, joined by single "-" or "_"')

/** Separates a server's slug from its tool's name in the names the model sees. */
export const MCP_TOOL_SEPARATOR = '__'

const httpUrl = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//i.test(value), 'must be an http(s) URL')

const serverFields = {
  name: z.string().trim().min(1).max(100),
  type: McpServerType,
  command: z.string().max(4_000),
  args: z.array(z.string().max(4_000)).max(200),
  env: StringMap,
  cwd: z.string().max(4_000).optional(),
  url: z.string().max(4_000),
  headers: StringMap,
  enabled: z.boolean(),
  timeoutMs: z.number().int().min(1_000).max(3_600_000),
  disabledTools: z.array(z.string().max(200)),
  autoApproveTools: z.array(z.string().max(200)),
  description: z.string().max(2_000),
  icon: z.string().max(200),
  slug: McpServerSlug
}

/** The editable fields of a server, as the user (or an imported JSON file) gives them. */
export const McpServerFields = z.object({
  ...serverFields,
  command: serverFields.command.default(''),
  args: serverFields.args.default([]),
  env: serverFields.env.default({}),
  url: serverFields.url.default(''),
  headers: serverFields.headers.default({}),
  enabled: serverFields.enabled.default(true),
  timeoutMs: serverFields.timeoutMs.default(DEFAULT_MCP_TIMEOUT_MS),
  disabledTools: serverFields.disabledTools.default([]),
  autoApproveTools: serverFields.autoApproveTools.default([]),
  description: serverFields.description.default(''),
  icon: serverFields.icon.default(''),
  /** Derived from the id when absent. */
  slug: serverFields.slug.optional()
})

function checkTransportFields(
  server: { type: McpServerType; command: string; url: string },
  ctx: z.RefinementCtx
): void {
  if ((server.type === 'stdio' || server.type === 'inmemory') && !server.command.trim()) {
    ctx.addIssue({ code: 'custom', path: ['command'], message: `a ${server.type} server needs a command` })
  }
  if ((server.type === 'http' || server.type === 'sse') && !httpUrl.safeParse(server.url).success) {
    ctx.addIssue({ code: 'custom', path: ['url'], message: `a ${server.type} server needs an http(s) URL` })
  }
}

/** Input of `mcp.add`: the id is derived from the name unless given. */
export const McpServerInput = McpServerFields.extend({ id: McpServerId.optional() }).superRefine(
  checkTransportFields
)
export type McpServerInput = z.input<typeof McpServerInput>

/** A change to a server; absent keys are kept. */
export const McpServerPatch = z
  .object(serverFields)
  .partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, { message: 'patch must change at least one field' })
export type McpServerPatch = z.input<typeof McpServerPatch>

/** One stored server. Secret env/header values are held in secret storage, not here. */
export const McpServerConfig = McpServerFields.extend({ id: McpServerId, slug: McpServerSlug }).superRefine(
  checkTransportFields
)
export type McpServerConfig = z.output<typeof McpServerConfig>

export const McpServerState = z.enum(['starting', 'running', 'error', 'stopped'])
export type McpServerState = z.infer<typeof McpServerState>

export const McpServerStatus = z.object({
  serverId: z.string(),
  state: McpServerState,
  lastError: z.string().optional(),
  /** The last lines the process wrote to stderr (stdio only). */
  stderrTail: z.array(z.string()),
  /** Reconnect attempt in progress (1-based), when recovering from a crash. */
  reconnectAttempt: z.number().int().optional(),
  serverInfo: z.object({ name: z.string(), version: z.string() }).optional(),
  updatedAt: z.number()
})
export type McpServerStatus = z.infer<typeof McpServerStatus>

/** A tool the server listed but the app left out, because its definition is broken. */
export const McpSkippedTool = z.object({ name: z.string(), reason: z.string() })
export type McpSkippedTool = z.infer<typeof McpSkippedTool>

/** What routes return for a server: config with secrets masked, plus its live status. */
export const McpServerView = McpServerFields.extend({
  id: z.string(),
  slug: z.string(),
  secretKeys: z.object({ env: z.array(z.string()), headers: z.array(z.string()) }),
  status: McpServerStatus,
  /** Tools of the running server left out, each with why (shown on its card). */
  skippedTools: z.array(McpSkippedTool).optional()
})
export type McpServerView = z.infer<typeof McpServerView>

export const McpToolAnnotations = z.object({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional()
})

/**
 * Why an exposed name is not simply `<slug>__<tool>`: characters providers refuse were replaced
 * (`bad name!` → `bad_name`), the name was cut to 64 characters with a hash, or it met another
 * tool of the same server after those rewrites and got a hash to stay unique.
 */
export const McpToolNameFlag = z.enum(['invalid_chars', 'shortened', 'deduplicated'])
export type McpToolNameFlag = z.infer<typeof McpToolNameFlag>

export const McpToolView = z.object({
  serverId: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  annotations: McpToolAnnotations.optional(),
  disabled: z.boolean(),
  autoApproved: z.boolean(),
  /** The name the model calls it by: `<slug>__<tool>`, rewritten as `nameFlags` say. */
  exposedName: z.string(),
  nameFlags: z.array(McpToolNameFlag),
  /** Off until the user reviews it on the server's card: changed since pinned, or new (tool pinning). */
  heldForReview: z.enum(['changed', 'new']).optional()
})
export type McpToolView = z.infer<typeof McpToolView>

export const McpPromptView = z.object({
  serverId: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(
    z.object({ name: z.string(), description: z.string().optional(), required: z.boolean().optional() })
  )
})
export type McpPromptView = z.infer<typeof McpPromptView>

export const McpResourceView = z.object({
  serverId: z.string(),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional()
})
export type McpResourceView = z.infer<typeof McpResourceView>

export const McpResourceTemplateView = z.object({
  serverId: z.string(),
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional()
})
export type McpResourceTemplateView = z.infer<typeof McpResourceTemplateView>

/** MCP's non-text content items (tool results, prompt messages); media `data` is base64. */
export const McpNonTextItem = z.discriminatedUnion('type', [
  z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string() }),
  z.object({ type: z.literal('audio'), data: z.string(), mimeType: z.string() }),
  z.object({
    type: z.literal('resource'),
    resource: z.object({
      uri: z.string(),
      mimeType: z.string().optional(),
      text: z.string().optional(),
      blob: z.string().optional()
    })
  }),
  z.object({
    type: z.literal('resource_link'),
    uri: z.string(),
    name: z.string().optional(),
    mimeType: z.string().optional(),
    description: z.string().optional()
  })
])

export const McpContentItem = z.union([
  z.object({ type: z.literal('text'), text: z.string() }),
  McpNonTextItem
])

export const McpCallResultView = z.object({
  content: z.array(McpContentItem),
  structuredContent: z.unknown().optional(),
  isError: z.boolean()
})

export const McpPromptMessage = z.object({ role: z.enum(['user', 'assistant']), content: McpContentItem })
export const McpPromptResult = z.object({
  description: z.string().optional(),
  messages: z.array(McpPromptMessage)
})
export type McpPromptResult = z.infer<typeof McpPromptResult>

export const McpResourceContents = z.object({
  uri: z.string(),
  mimeType: z.string().optional(),
  text: z.string().optional(),
  blob: z.string().optional()
})
export type McpResourceContents = z.infer<typeof McpResourceContents>

/** What an argument completion is for: a prompt's argument or a resource template's variable. */
export const McpCompletionRef = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ref/prompt'), name: z.string().min(1).max(200) }),
  z.object({ type: z.literal('ref/resource'), uri: z.string().min(1).max(4_000) })
])
export type McpCompletionRef = z.infer<typeof McpCompletionRef>

export const McpCompletionRequest = z.object({
  serverId: z.string().min(1).max(64),
  ref: McpCompletionRef,
  argument: z.object({ name: z.string().min(1).max(200), value: z.string().max(2_000) }),
  /** Values of the other arguments already filled in. */
  context: z.record(z.string(), z.string()).optional()
})
export type McpCompletionRequest = z.infer<typeof McpCompletionRequest>

export const McpCompletionResult = z.object({
  values: z.array(z.string()).max(100),
  total: z.number().int().optional(),
  hasMore: z.boolean().optional()
})
export type McpCompletionResult = z.infer<typeof McpCompletionResult>

/** A form request from a server (elicitation), shown to the user. */
export const McpElicitationRequest = z.object({
  requestId: z.string(),
  serverId: z.string(),
  serverName: z.string(),
  message: z.string(),
  requestedSchema: z.record(z.string(), z.unknown())
})
export type McpElicitationRequest = z.infer<typeof McpElicitationRequest>

export const McpElicitationAnswer = z.object({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
    .optional()
})
export type McpElicitationAnswer = z.infer<typeof McpElicitationAnswer>

export const McpSamplingMessage = z.object({
  role: z.enum(['user', 'assistant']),
  text: z.string().optional(),
  image: z.object({ data: z.string(), mimeType: z.string() }).optional()
})

/** A server asks the app to run the model for it (sampling); the user approves and picks the model. */
export const McpSamplingRequest = z.object({
  requestId: z.string(),
  serverId: z.string(),
  serverName: z.string(),
  systemPrompt: z.string().optional(),
  maxTokens: z.number(),
  messages: z.array(McpSamplingMessage),
  modelHints: z.array(z.string())
})
export type McpSamplingRequest = z.infer<typeof McpSamplingRequest>

export const McpSamplingDecision = z.object({
  approved: z.boolean(),
  providerId: z.string().optional(),
  modelId: z.string().optional(),
  reason: z.string().max(500).optional()
})
export type McpSamplingDecision = z.infer<typeof McpSamplingDecision>

export const McpOAuthState = z.object({
  /** The server signs in with OAuth: remote, no static Authorization header, OAuth offered. */
  applicable: z.boolean(),
  /** Tokens from an earlier sign-in are stored. */
  signedIn: z.boolean()
})
export type McpOAuthState = z.infer<typeof McpOAuthState>
