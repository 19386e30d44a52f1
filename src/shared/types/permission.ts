import { z } from 'zod'

/**
 * How much a session may do without asking. A missing or unknown value is `default`: the safe
 * choice, never the permissive one. `sandboxed` runs any command unasked inside the OS sandbox
 * (workspace writable except protected paths, no network); `full_access` runs everything.
 */
export const PermissionMode = z.enum(['default', 'accept_edits', 'sandboxed', 'full_access'])
export type PermissionMode = z.infer<typeof PermissionMode>

/** Modes in order of how much they allow without asking: a child or a tool may never widen past its parent. */
export const PERMISSION_MODE_RANK: Record<PermissionMode, number> = {
  default: 0,
  accept_edits: 1,
  sandboxed: 2,
  full_access: 3
}

/** True when `mode` allows more than `than`. */
export function isWiderMode(mode: PermissionMode, than: PermissionMode): boolean {
  return PERMISSION_MODE_RANK[mode] > PERMISSION_MODE_RANK[than]
}

export function normalizePermissionMode(value: unknown): PermissionMode {
  const parsed = PermissionMode.safeParse(value)
  return parsed.success ? parsed.data : 'default'
}

export const RiskLevel = z.enum(['low', 'medium', 'high', 'critical'])
export type RiskLevel = z.infer<typeof RiskLevel>

export const CommandCategory = z.enum(['read_only', 'writes', 'network', 'destructive', 'unknown'])
export type CommandCategory = z.infer<typeof CommandCategory>

/**
 * A reason in a form the UI can translate: a stable code (`find_delete`, `git_network`, ...) and
 * the values its wording needs. The English text stays in the plain string fields beside it.
 */
export const ReasonCode = z.object({
  code: z.string(),
  params: z.record(z.string(), z.string()).optional()
})
export type ReasonCode = z.infer<typeof ReasonCode>

/** One simple command inside a shell line, as the command classifier saw it. */
export const SubCommand = z.object({
  text: z.string(),
  program: z.string(),
  category: CommandCategory,
  risk: RiskLevel,
  reasons: z.array(z.string()),
  /** `reasons` as codes, same order and length (absent in requests stored before codes existed). */
  reasonCodes: z.array(ReasonCode).optional(),
  /** Absolute paths this sub-command touches that lie outside the workspace. */
  outsidePaths: z.array(z.string())
})
export type SubCommand = z.infer<typeof SubCommand>

export const PermissionType = z.enum(['read', 'write', 'command', 'settings', 'mcp', 'network'])
export type PermissionType = z.infer<typeof PermissionType>

/** Everything the user needs to decide, and everything a remembered rule is matched against. */
export const PermissionRequest = z.object({
  type: PermissionType,
  /** The tool's name as the model called it. */
  tool: z.string(),
  /** `agent-filesystem`, `agent-core`, or the MCP server id. */
  server: z.string(),
  /** The MCP tool's own name on its server (for `mcp` requests). */
  originalTool: z.string().optional(),
  sessionId: z.string(),
  risk: RiskLevel,
  reason: z.string(),
  /** The parts `reason` was made of, as codes (joined with `; ` in `reason`). */
  reasonCodes: z.array(ReasonCode).optional(),
  /** Real paths (after symlinks) for file requests. */
  paths: z.array(z.string()).optional(),
  /** The host a `network` request goes to (web_fetch), lower-case. */
  host: z.string().optional(),
  command: z.string().optional(),
  cwd: z.string().optional(),
  subCommands: z.array(SubCommand).optional(),
  /** Risks of the line as a whole (substitution, subshell, parse errors, cwd outside). */
  lineReasons: z.array(z.string()).optional(),
  /** `lineReasons` as codes, same order and length. */
  lineReasonCodes: z.array(ReasonCode).optional(),
  /** What "Always allow" would store if the user does not edit it. */
  suggestedRule: z.lazy(() => RuleDraft).optional()
})
export type PermissionRequest = z.infer<typeof PermissionRequest>

export const RuleKind = z.enum(['read', 'write', 'exec', 'mcp', 'settings', 'network'])
export type RuleKind = z.infer<typeof RuleKind>

export const RuleEffect = z.enum(['allow', 'deny'])
export type RuleEffect = z.infer<typeof RuleEffect>

/**
 * A remembered decision. Patterns: `read`/`write` are path globs (`~/notes/**`); `exec` matches a
 * sub-command or the whole line with `*` wildcards (`npm test*`); `mcp` is `server/tool`
 * (`github/*`); `settings` is a tool name.
 */
export const RuleDraft = z.object({
  kind: RuleKind,
  pattern: z.string().trim().min(1).max(2000),
  effect: RuleEffect.default('allow')
})
export type RuleDraft = z.infer<typeof RuleDraft>

export const PermissionRule = z.object({
  id: z.string(),
  kind: RuleKind,
  pattern: z.string(),
  effect: RuleEffect,
  createdAt: z.number()
})
export type PermissionRule = z.infer<typeof PermissionRule>

export const PermissionDecision = z.enum(['once', 'session', 'always', 'deny'])
export type PermissionDecision = z.infer<typeof PermissionDecision>

/** Which OS sandbox guards commands that run unasked, or why none does (Settings › Permissions). */
export const SandboxStatus = z.object({
  kind: z.enum(['bwrap', 'seatbelt', 'none']),
  available: z.boolean(),
  /** Why there is no sandbox (platform, bwrap missing, user namespaces off), in English. */
  reason: z.string().optional(),
  /** The same as a code the UI words in the user's language (`reason` stays for the log). */
  reasonCode: z
    .enum(['seatbelt_missing', 'unsupported_platform', 'bwrap_missing', 'bwrap_broken'])
    .optional(),
  /** What the code needs: the platform's name, or the first line bwrap printed. */
  reasonParams: z.record(z.string(), z.string()).optional(),
  /**
   * What keeps Unix sockets outside the sandbox out of reach: a seccomp filter under bwrap, the
   * seatbelt profile on macOS, or nothing (no sandbox, or bwrap without seccomp on this machine).
   */
  socketGuard: z.enum(['seccomp', 'seatbelt', 'none'])
})
export type SandboxStatus = z.infer<typeof SandboxStatus>

/** One permission prompt of the user's history, as a replay lists it. */
export const RecordedPromptView = z.object({
  interactionId: z.string(),
  sessionId: z.string(),
  sessionTitle: z.string(),
  at: z.number(),
  type: PermissionType,
  tool: z.string(),
  /** What was asked: the command line, the paths, the host or `server/tool`. */
  subject: z.string()
})
export type RecordedPromptView = z.infer<typeof RecordedPromptView>

/** What a rule would have done over the user's recent permission prompts (all chats). */
export const RuleReplay = z.object({
  rule: RuleDraft,
  /** How many of the newest prompts were looked at (at most the bound). */
  considered: z.number().int(),
  /** How many of those the rule would have allowed without asking. */
  wouldAllow: z.number().int(),
  /** Of those, the ones the user denied, newest first. */
  deniedButAllowed: z.array(RecordedPromptView),
  /** How many of those the user allowed (once, for the chat, or always). */
  approvedAndAllowed: z.number().int()
})
export type RuleReplay = z.infer<typeof RuleReplay>

/**
 * A rule offered after the user allowed the same kind of request again and again: never
 * broader than those approvals, shown with its replay before anything is saved.
 */
export const LearnedRuleOffer = z.object({
  rule: RuleDraft,
  /** How many times the user allowed this kind of request (this answer included). */
  approvals: z.number().int(),
  replay: RuleReplay
})
export type LearnedRuleOffer = z.infer<typeof LearnedRuleOffer>
