import { z } from 'zod'
import { defineRoute } from '../define'
import {
  CreateSessionInput,
  GenerationSettings,
  PendingInteraction,
  SessionRecord,
  SessionSearchHit
} from '../../types/session'
import { TapeEntryKind, TapeTimeBound } from '../../types/tape'
import { PermissionMode } from '../../types/permission'
import { McpServerState } from '../../types/mcp'
import { OfferedTools } from '../../types/agentTools'

const SessionId = z.string().min(1).max(100)
const MessageId = z.string().min(1).max(100)

export const sessionsCreate = defineRoute({
  name: 'sessions.create',
  input: z.object({ session: CreateSessionInput.default({}) }).strict(),
  output: z.object({ session: SessionRecord })
})

export const sessionsList = defineRoute({
  name: 'sessions.list',
  input: z
    .object({ limit: z.number().int().min(1).max(200).optional(), cursor: z.string().max(1000).optional() })
    .strict(),
  output: z.object({ sessions: z.array(SessionRecord), nextCursor: z.string().nullable() })
})

export const sessionsGet = defineRoute({
  name: 'sessions.get',
  input: z.object({ sessionId: SessionId }).strict(),
  output: z.object({ session: SessionRecord, children: z.array(SessionRecord) })
})

export const sessionsRename = defineRoute({
  name: 'sessions.rename',
  input: z.object({ sessionId: SessionId, title: z.string().trim().min(1).max(200) }).strict(),
  output: z.object({ session: SessionRecord })
})

export const sessionsPin = defineRoute({
  name: 'sessions.pin',
  input: z.object({ sessionId: SessionId, pinned: z.boolean() }).strict(),
  output: z.object({ session: SessionRecord })
})

/** Deletes the session, its subagent children and every tape they own. Cannot be undone. */
export const sessionsPurge = defineRoute({
  name: 'sessions.purge',
  input: z.object({ sessionId: SessionId }).strict(),
  output: z.object({ purgedSessionIds: z.array(z.string()) })
})

export const sessionsFork = defineRoute({
  name: 'sessions.fork',
  input: z
    .object({
      sessionId: SessionId,
      messageId: MessageId,
      title: z.string().trim().min(1).max(200).optional()
    })
    .strict(),
  output: z.object({ session: SessionRecord })
})

// Messages are read through chat.getMessages / chat.getMessage, which know about retried and
// edited turns; there is deliberately no second reading API here.

export const sessionsListInteractions = defineRoute({
  name: 'sessions.listInteractions',
  input: z.object({ sessionId: SessionId, pendingOnly: z.boolean().default(true) }).strict(),
  output: z.object({ interactions: z.array(PendingInteraction) })
})

export const sessionsSearchHistory = defineRoute({
  name: 'sessions.searchHistory',
  input: z
    .object({
      query: z.string().trim().min(1).max(500),
      limit: z.number().int().min(1).max(100).optional(),
      kinds: z.array(TapeEntryKind).min(1).optional(),
      start: TapeTimeBound.optional(),
      end: TapeTimeBound.optional()
    })
    .strict(),
  output: z.object({ hits: z.array(SessionSearchHit) })
})

/**
 * A built-in tool as the chat's tools popover shows it. `enabled` is this session's switch;
 * `available` says whether the session can have the tool at all (a skill it needs is active, a
 * feature it uses is on). The model gets the tool when both are true.
 */
export const SessionToolSwitch = z.object({
  name: z.string(),
  /** The tool's group (`agent-filesystem`, `agent-core`, …). */
  group: z.string(),
  readOnly: z.boolean(),
  enabled: z.boolean(),
  available: z.boolean()
})
export type SessionToolSwitch = z.infer<typeof SessionToolSwitch>

/** An MCP server for one session: `enabled` is this session's switch, `serverEnabled` the app-wide one. */
export const SessionMcpServerSwitch = z.object({
  id: z.string(),
  name: z.string(),
  state: McpServerState,
  lastError: z.string().optional(),
  serverEnabled: z.boolean(),
  enabled: z.boolean()
})
export type SessionMcpServerSwitch = z.infer<typeof SessionMcpServerSwitch>

export const SessionSettingsView = z.object({
  sessionId: z.string(),
  providerId: z.string().nullable(),
  modelId: z.string().nullable(),
  permissionMode: PermissionMode,
  workspaceDir: z.string(),
  /** The chat works in its own scratch folder (the user chose none). */
  workspaceIsScratch: z.boolean(),
  tools: z.array(SessionToolSwitch),
  mcpServers: z.array(SessionMcpServerSwitch),
  /** The chat's instructions and parameters (the model's settings tools change these too). */
  generation: GenerationSettings
})
export type SessionSettingsView = z.infer<typeof SessionSettingsView>

const switches = (what: string) =>
  z
    .record(z.string().min(1).max(200), z.boolean())
    .refine((value) => Object.keys(value).length <= 200, `at most 200 ${what} at once`)

/** A change to a chat's instructions and parameters; null clears a value (the model's default). */
export const GenerationPatch = z
  .object({
    systemPrompt: GenerationSettings.shape.systemPrompt.unwrap().nullable().optional(),
    temperature: GenerationSettings.shape.temperature.unwrap().nullable().optional(),
    topP: GenerationSettings.shape.topP.unwrap().nullable().optional(),
    maxTokens: GenerationSettings.shape.maxTokens.unwrap().nullable().optional(),
    reasoningEffort: GenerationSettings.shape.reasoningEffort.unwrap().nullable().optional(),
    webSearch: GenerationSettings.shape.webSearch.unwrap().nullable().optional()
  })
  .strict()
export type GenerationPatch = z.infer<typeof GenerationPatch>

/** What the user may change on an existing chat. Absent keys stay as they are. */
export const SessionSettingsPatch = z
  .object({
    model: z
      .object({ providerId: z.string().min(1).max(200), modelId: z.string().min(1).max(200) })
      .strict()
      .optional(),
    /** The user may widen the mode too (the model's own settings tool may only narrow it). */
    permissionMode: PermissionMode.optional(),
    /** An absolute path to an existing folder, or null for the chat's own scratch folder. */
    workspaceDir: z.string().trim().min(1).max(4096).nullable().optional(),
    /** Built-in tool name -> on/off for this session. */
    tools: switches('tool switches').optional(),
    /** MCP server id -> on/off for this session. */
    mcpServers: switches('server switches').optional(),
    /** Instructions and parameters: a value sets it, null goes back to the model's default. */
    generation: GenerationPatch.optional()
  })
  .strict()
export type SessionSettingsPatch = z.infer<typeof SessionSettingsPatch>

export const sessionsGetSettings = defineRoute({
  name: 'sessions.getSettings',
  input: z.object({ sessionId: SessionId }).strict(),
  output: z.object({ settings: SessionSettingsView })
})

/** Applies from the session's next provider request; a running turn keeps going. */
export const sessionsUpdateSettings = defineRoute({
  name: 'sessions.updateSettings',
  input: z.object({ sessionId: SessionId, patch: SessionSettingsPatch }).strict(),
  output: z.object({ settings: SessionSettingsView })
})

/**
 * The tools the chat's next provider request will carry (built-ins after availability and the
 * chat's switches, MCP tools by their exposed names), for the tools popover.
 */
export const sessionsOfferedTools = defineRoute({
  name: 'sessions.offeredTools',
  input: z.object({ sessionId: SessionId }).strict(),
  output: OfferedTools
})
