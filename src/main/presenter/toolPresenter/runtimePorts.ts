import type { CheckpointTool } from '@shared/builtinTools'
import type { PlanSnapshot } from '@shared/contracts/events/tools.events'
import type { PermissionMode } from '@shared/types/permission'
import type { MessageBlock } from '@shared/types/session'
import type { SubagentRunView } from '@shared/types/subagents'
import type { TapeEntryKind } from '@shared/types/tape'
import type { WebPresenter } from '../webPresenter'
import type { KnowledgeToolPort } from '../knowledgePresenter'

/** The content a file had before `write`, `edit` or a shell command changed it (null: it did not exist). */
export interface FileSnapshot {
  sessionId: string
  toolCallId: string
  tool: CheckpointTool
  path: string
  previousContent: string | null
  /** A shell command changed it but its old content was not kept (too large, not text). */
  notKept?: 'too_large' | 'binary'
}

export interface TapeSearchHit {
  entryId: number
  kind: string
  name: string
  createdAt: number
  summary?: string
  /** Higher is better; 0 for substring-only hits. */
  score?: number
}

/**
 * The only way agent tools reach sessions, tape, providers and subagents. The chat loop
 * implements it; tests use a small in-memory version. Optional members belong to tools that
 * need a feature (tape, memory, skills, subagents, ...); a tool whose member is missing is not offered.
 */
export interface AgentToolRuntimePort {
  /** Records a file's previous content on the tape so a turn's edits can be listed and reverted. */
  recordFileSnapshot(snapshot: FileSnapshot): Promise<void> | void
  /** Publishes the latest plan (the loop upserts the plan block and emits `tools.plan.updated`). */
  publishPlan(snapshot: PlanSnapshot): void
  /** Tells the loop a background process changed state, for the process list in the UI. */
  notifyProcessChanged?(event: {
    sessionId: string
    processId: string
    command: string
    status: 'running' | 'done' | 'error' | 'killed'
    exitCode: number | null
  }): void

  searchTape?(sessionId: string, query: string, options?: TapeSearchPortOptions): Promise<TapeSearchHit[]>
  getTapeContext?(sessionId: string, entryIds: number[], options?: TapeContextPortOptions): Promise<unknown>
  handoffTape?(sessionId: string, name: string, summary: string): Promise<{ entryId: number }>
  getTapeInfo?(sessionId: string): Promise<unknown>
  listTapeAnchors?(
    sessionId: string,
    limit: number
  ): Promise<{ name: string; entryId: number; createdAt: number }[]>

  /** Per-session tool switches and active skills (chat-settings and skill tools change them). */
  toolState?(sessionId: string): SessionToolState
  memory?: MemoryPort
  skills?: SkillPort
  sessionSettings?: ChatSettingsPort
  /** Generates images with the session's image model; null when it has none. */
  imageModelFor?(sessionId: string): { providerId: string; modelId: string } | null
  generateImage?(sessionId: string, request: ImageRequest, signal?: AbortSignal): Promise<GeneratedImage[]>
  /** Subagent runs for `subagent_orchestrator` (absent or unavailable: the tool is not offered). */
  subagents?: SubagentPort
  /** Web search and page reads through the app's proxy (absent: web_search and web_fetch are not offered). */
  web?: Pick<WebPresenter, 'search' | 'fetchPage' | 'searchReady'>
  /** The chat's attached knowledge bases (absent, or none attached: knowledge_search is not offered). */
  knowledge?: KnowledgeToolPort
}

export interface SubagentRunRequest {
  mode: 'parallel' | 'chain'
  tasks: { id?: string; slotId: string; title: string; prompt: string; expectedOutput?: string }[]
  background: boolean
  timeoutMs?: number
}

/**
 * The chat loop that runs a tool call, as the loop hands itself to the call: a subagent run
 * starts and follows its children's turns on it. Passed with each call (not built into the
 * tools), because the loop is built after the tools it runs.
 */
export interface ChatTurns {
  sendMessage(input: { sessionId: string; text: string }): Promise<{ assistantMessageId: string | null }>
  stop(sessionId: string): Promise<unknown>
  isRunning(sessionId: string): boolean
  /** The live message (a streaming one shows what has streamed so far). */
  getMessage(messageId: string): { status: string; blocks: MessageBlock[] }
}

/** Every call names the calling (parent) session; runs of other sessions are not visible. */
export interface SubagentPort {
  available(sessionId: string): boolean
  slots(sessionId: string): { id: string; displayName: string; description: string }[]
  run(
    sessionId: string,
    request: SubagentRunRequest,
    options: { turns: ChatTurns; signal?: AbortSignal; onProgress?: (run: SubagentRunView) => void }
  ): Promise<SubagentRunView>
  list(sessionId: string): SubagentRunView[]
  info(sessionId: string, runId: string): SubagentRunView
  wait(
    sessionId: string,
    runId: string,
    timeoutMs: number,
    signal?: AbortSignal
  ): Promise<{ run: SubagentRunView; finished: boolean }>
  kill(sessionId: string, runId: string): Promise<SubagentRunView>
}

export interface TapeSearchPortOptions {
  limit?: number
  kinds?: TapeEntryKind[]
  start?: number | string
  end?: number | string
}

export interface TapeContextPortOptions {
  before?: number
  after?: number
  limit?: number
  maxBytesPerEntry?: number
  maxTotalBytes?: number
}

export interface SessionToolState {
  /** Built-in tools the session switched off. */
  disabledTools: string[]
  /** Diagnostic tools the session switched on. */
  enabledTools: string[]
  activeSkills: string[]
}

export type MemoryKind = 'semantic' | 'episodic'

export interface MemoryRecord {
  id: string
  kind: MemoryKind
  category: string | null
  content: string
  importance: number
  createdAt: number
  updatedAt: number
}

export interface MemoryPort {
  isEnabled(sessionId: string): boolean
  remember(
    sessionId: string,
    input: { content: string; kind: MemoryKind; category?: string; importance: number }
  ): { action: 'created' | 'updated' | 'noop'; id: string; reason?: string }
  recall(sessionId: string, query: string, limit: number): MemoryRecord[]
  forget(sessionId: string, memoryId: string): boolean
}

export interface SkillSummary {
  name: string
  description: string
  allowedTools: string[]
  source: 'builtin' | 'app' | 'workspace'
  active: boolean
}

export interface SkillView {
  name: string
  root: string
  /** SKILL.md without front matter, or the requested file. */
  content: string
  filePath: string | null
  linkedFiles: string[]
  allowedTools: string[]
}

export interface SkillPort {
  list(sessionId: string): Promise<SkillSummary[]>
  view(sessionId: string, name: string, filePath?: string): Promise<SkillView>
  /** Returns false when it was already active. */
  activate(sessionId: string, name: string): boolean
}

/** A chat's settings as the model's `deepchat_settings_*` tools see them. */
export interface ChatSettingsView {
  providerId: string | null
  modelId: string | null
  temperature: number | null
  systemPrompt: string
  permissionMode: PermissionMode
  disabledTools: string[]
  enabledTools: string[]
  availableModels: { providerId: string; modelId: string }[]
}

export interface ChatSettingsPatch {
  model?: { providerId: string; modelId: string }
  temperature?: number | null
  systemPrompt?: string
  permissionMode?: PermissionMode
  disabledTools?: string[]
  enabledTools?: string[]
}

export interface ChatSettingsPort {
  read(sessionId: string): Promise<ChatSettingsView>
  /** Validates and applies the patch; throws an Error with a clear message on a bad value. */
  update(sessionId: string, patch: ChatSettingsPatch): Promise<ChatSettingsView>
}

export interface ImageRequest {
  prompt: string
  size?: string
  quality?: 'low' | 'medium' | 'high' | 'auto'
  outputFormat?: 'png' | 'jpeg' | 'webp'
  background?: 'auto' | 'opaque'
}

export interface GeneratedImage {
  mimeType: string
  base64: string
}
