import { homedir } from 'node:os'
import { join } from 'node:path'
import type { Platform } from '../platform/types'
import { EventHub } from '../bridge/events'
import { mcpToolsDeferred } from '@shared/contracts/events/mcp.events'
import type { SqlitePresenter } from './sqlitePresenter'
import { openDatabase } from './sqlitePresenter/damaged'
import { StorageGuard } from './sqlitePresenter/storageGuard'
import { appStorageChanged } from '@shared/contracts/events/app.events'
import { ConfigPresenter } from './configPresenter'
import { LlmProviderPresenter } from './llmProviderPresenter'
import { TapePresenter } from './tapePresenter'
import { SessionPresenter } from './sessionPresenter'
import { DataPresenter, LATEST_SCHEMA_VERSION } from './dataPresenter'
import { applyPendingDatabaseRestore, applyPendingRestore } from './dataPresenter/backup'
import { AutoBackups } from './dataPresenter/autoBackup'
import { Workspaces, newChatWorkspace } from './sessionPresenter/workspaces'
import { SessionSettings } from './sessionPresenter/settings'
import {
  CommandPermissionService,
  FilePermissionService,
  PermissionPresenter,
  PermissionRuleStore
} from './permission'
import { ToolPresenter } from './toolPresenter'
import { BackgroundProcessManager } from './toolPresenter/agentTools/processManager'
import { Sandbox, sweepLeftoverStubs } from './sandbox'
import { startProcessHygiene } from './hygiene'
import { McpPresenter } from './mcpPresenter'
import { createShellEnvResolver, withAllowedVariables } from './mcpPresenter/shellEnv'
import { createMcpPermissionGate } from './mcpPresenter/permissionGate'
import { createCoreStreamSampler } from './mcpPresenter/samplingRunner'
import { AgentRuntimePresenter, LoopRuntimePort } from './agentRuntimePresenter'
import { modelLimitsFrom } from './agentRuntimePresenter/modelLimits'
import { createTapeToolPort, extendRuntimePort } from './agentRuntimePresenter/tapeToolPort'
import { SessionAgentStateStore } from './sessionPresenter/agentState'
import { createImagePort, createMemoryPort } from './agentRuntimePresenter/featurePorts'
import { MemoryPresenter } from './memoryPresenter'
import { SkillPresenter } from './skillPresenter'
import { CheckpointPresenter, messagesSince } from './checkpoints'
import { SubagentPresenter } from './subagentPresenter'
import { createSubagentPort } from './subagentPresenter/port'
import { agentSlot } from './subagentPresenter/agentSlots'
import { AcpPresenter } from './acpPresenter'
import { ACP_PROVIDER_ID } from '@shared/types/acp'
import { AttachmentPresenter } from './attachmentPresenter'
import { LibraryPresenter } from './libraryPresenter'
import type { AppDataBoundary } from './permission/boundary'
import { DraftStore } from './sessionPresenter/drafts'

export interface Presenters {
  platform: Platform
  events: EventHub
  sqlite: SqlitePresenter
  /** Whether the data folder can be written (disk full, read-only, removed), in the user's words. */
  storage: StorageGuard
  config: ConfigPresenter
  llmProviders: LlmProviderPresenter
  tape: TapePresenter
  sessions: SessionPresenter
  /** Chats' folders: validation of chosen ones, scratch folders for the rest. */
  workspaces: Workspaces
  permissions: PermissionPresenter
  /** The OS sandbox unasked commands run in (its status shows in Settings › Permissions). */
  sandbox: Sandbox
  tools: ToolPresenter
  mcp: McpPresenter
  agentRuntime: AgentRuntimePresenter
  memory: MemoryPresenter
  skills: SkillPresenter
  checkpoints: CheckpointPresenter
  subagents: SubagentPresenter
  /** ACP agents: registry, processes, chats' sessions with them, their boundary. */
  acp: AcpPresenter
  /** A chat's model, permission mode, workspace and tool switches: the user's door and the model's. */
  sessionSettings: SessionSettings
  /** Files attached to messages, stored once by content hash. */
  attachments: AttachmentPresenter
  /** Saved prompts and assistants. */
  library: LibraryPresenter
  /** What is being written in each chat's composer (and the new-chat page's). */
  drafts: DraftStore
  /** Chat export and import (Markdown, HTML, JSON). */
  data: DataPresenter
  /** Daily copies of the database; the app entries start them (tests do not). */
  backups: AutoBackups
  /** Stops background work and closes the database. Safe to call twice. */
  dispose(): Promise<void>
}

export const DATABASE_FILE = 'deepchat.db'

/**
 * The composition root: the only place that calls `new` on presenters and hands each one the
 * narrow interfaces it needs.
 */
export interface CreatePresentersOptions {
  log?: (message: string) => void
  /**
   * The app's bundled skills; the Electron and headless entries pass appResources.ts's answer.
   * Unset (tests run from the source tree): `resources/skills` under the working directory.
   */
  builtinSkillsDir?: string
  /**
   * The app and the headless host read the login shell at launch, so the first server start or
   * command does not wait for it; tests leave it lazy (most never need it).
   */
  resolveShellEnvAtLaunch?: boolean
  /** The login-shell env reader; tests share one per file (the user's shell does not change). */
  shellEnv?: () => Promise<Record<string, string>>
  /** The start's `quick_check` found the database damaged (sqlitePresenter/damaged.ts): it is moved aside. */
  damagedDatabase?: { reason: string } | null
}

export function createPresenters(platform: Platform, options: CreatePresentersOptions = {}): Presenters {
  const log = options.log ?? ((message: string) => console.error(message))
  const events = new EventHub(log)
  // A restore the user confirmed in the last run replaces the data before anything opens it.
  applyPendingRestore(platform.userDataDir, {
    schemaVersion: LATEST_SCHEMA_VERSION,
    secretsFile: platform.secretsFile
  })
  const keptBeforeRestore = applyPendingDatabaseRestore(platform.userDataDir)
  if (keptBeforeRestore)
    log(`Restored the database from a backup; the one it replaced is at ${keptBeforeRestore}`)
  // A file that is not a database, or a damaged one, is moved aside and a fresh one created.
  const databaseFile = join(platform.userDataDir, DATABASE_FILE)
  const opened = openDatabase(
    { file: databaseFile, nativeBinding: platform.sqliteNativeBinding },
    options.damagedDatabase ?? null,
    log
  )
  const sqlite = opened.sqlite
  const storage = new StorageGuard({
    dataDir: platform.userDataDir,
    databaseFile,
    stopWrites: () => sqlite.db.pragma('query_only = ON'),
    log,
    damaged: opened.damaged,
    latestBackup: () => backups.list()[0]?.path ?? null
  })
  storage.onChange(() => events.emit(appStorageChanged, storage.status()))
  storage.start()
  // Reaping of the commands a crashed host left behind.
  const hygiene = startProcessHygiene({ dataDir: platform.userDataDir, log })
  const workspaces = new Workspaces({ dataDir: platform.userDataDir })
  const config = new ConfigPresenter({
    sqlite,
    secrets: platform.secrets,
    events,
    validateWorkspace: (path) => workspaces.validate(path)
  })
  const llmProviders = new LlmProviderPresenter({ config, events })
  const backupFolder = () => config.getSettings().backupFolder || join(platform.userDataDir, 'backups')
  const backups = new AutoBackups({
    db: sqlite.db,
    folder: backupFolder,
    keepDays: () => config.getSettings().autoBackupDays,
    log
  })
  const tape = new TapePresenter({ sqlite })
  // The data folder is outside every boundary (tools and the sandbox); its secrets file no tool may touch.
  const appData = {
    dataDir: platform.userDataDir,
    secretsFiles: [platform.secretsFile],
    scratchRoot: workspaces.scratchRoot
  }
  const stubJournal = join(platform.userDataDir, 'sandbox-stubs.json')
  for (const path of sweepLeftoverStubs(stubJournal))
    log(`Removed a sandbox stub a crashed run left behind: ${path}`)
  const sandbox = new Sandbox({ appData, stubJournal })
  const sessions = new SessionPresenter({ sqlite, tape, events, workspaces, log })
  const permissions = new PermissionPresenter({ rules: new PermissionRuleStore(sqlite), log })
  // One login-shell resolution for stdio MCP servers, ACP agents and exec; each gets only the
  // allowlisted variables and the names the user allowed in Settings.
  const allowedVariables = () => config.getSettings().allowedEnvVariables
  const shellEnv = withAllowedVariables(options.shellEnv ?? createShellEnvResolver(), allowedVariables)
  if (options.resolveShellEnvAtLaunch) void shellEnv()
  const mcp = new McpPresenter({
    config,
    events,
    shellEnv,
    clientInfo: { name: platform.appName, version: platform.appVersion },
    permissionGate: createMcpPermissionGate(permissions),
    sampler: () => createCoreStreamSampler(llmProviders),
    oauth: { openUrl: (url) => platform.openExternal(url), clientName: platform.appName },
    builtinDeps: { history: sessions },
    log
  })
  // Servers start in the background: a slow or broken one never delays the app.
  void mcp.startEnabledServers()
  // The chat loop owns the tools' runtime port: plans land in the running turn, snapshots on the tape.
  const runtimePort = new LoopRuntimePort({
    events,
    tape,
    tapeOf: (sessionId) => sessions.require(sessionId).tapeId
  })
  const agentState = new SessionAgentStateStore(
    sqlite,
    Date.now,
    () => config.getSettings().disabledAgentTools
  )
  const memory = new MemoryPresenter({ sqlite, config })
  // Before the chat loop and subagents: agents are models and subagent targets.
  const acp = createAcpPresenter({
    platform,
    sqlite,
    config,
    events,
    shellEnv,
    hygiene,
    sandbox,
    permissions,
    mcp,
    agentState,
    appData,
    log
  })
  const skills = new SkillPresenter({
    builtinDir: options.builtinSkillsDir ?? join(process.cwd(), 'resources', 'skills'),
    appDir: join(platform.userDataDir, 'skills'),
    workspaceOf: (sessionId) => sessions.get(sessionId)?.workspaceDir ?? null,
    state: agentState,
    config
  })
  const subagents = new SubagentPresenter({
    sqlite,
    sessions,
    tape,
    events,
    log,
    agentSlots: () => acp.enabledAgents().map(agentSlot)
  })
  const sessionSettings = new SessionSettings({
    sqlite,
    sessions,
    state: agentState,
    providers: () => llmProviders.listProviders(),
    agentModels: () => acp.enabledAgents().map((a) => ({ providerId: ACP_PROVIDER_ID, modelId: a.id })),
    // The tool presenter is built below with the model's door to these settings.
    agentTools: () => tools.agentTools,
    toolAvailable: (sessionId, name) => tools.agentToolAvailable(sessionId, name),
    mcpServers: () => mcp.listServers(),
    toolsChanged: (sessionId) => tools.markToolsChanged(sessionId),
    workspaceChanged: (sessionId, dir) =>
      void mcp
        .sessionWorkspaceChanged(sessionId, [dir])
        .catch((error: unknown) => log(`roots: ${String(error)}`)),
    validateWorkspace: (path) => workspaces.validate(path),
    events
  })
  // One file boundary for the tools and for what approval cards may preview.
  const files = new FilePermissionService(homedir(), { appData })
  const tools: ToolPresenter = new ToolPresenter({
    mcp,
    mcpAutoApprove: (serverId, toolName) => mcp.isAutoApproved(serverId, toolName),
    disabledMcpServers: (sessionId) => agentState.disabledMcpServers(sessionId),
    onToolsDeferred: (info) => events.emit(mcpToolsDeferred, info),
    toolSearchLimits: () => ({ maxTools: config.getSettings().mcpToolSearchThreshold }),
    // exec sees the allowlisted environment, with the login shell's PATH (nvm, Homebrew, ...).
    processes: new BackgroundProcessManager({
      baseEnv: shellEnv,
      allowedVariables,
      sandbox,
      groups: hygiene.groups,
      log
    }),
    permissions,
    runtime: extendRuntimePort(runtimePort, {
      ...createTapeToolPort({
        tape,
        tapeOf: (sessionId) => sessions.require(sessionId).tapeId,
        hiddenMessageIds: (sessionId) => sessions.branches.tree(sessionId).hiddenIds()
      }),
      toolState: (sessionId) => agentState.get(sessionId),
      memory: createMemoryPort(memory),
      ...createImagePort(config, llmProviders),
      skills,
      subagents: createSubagentPort(subagents),
      sessionSettings: sessionSettings.modelPort()
    }),
    sessionDataRoot: join(platform.userDataDir, 'sessions'),
    files,
    commands: new CommandPermissionService({ appData }),
    sandbox,
    log
  })
  const attachments = new AttachmentPresenter({
    dir: join(platform.userDataDir, 'attachments'),
    readResource: (serverId, uri) => mcp.readResource(serverId, uri)
  })
  const library = new LibraryPresenter({ config })
  const agentRuntime = new AgentRuntimePresenter({
    sqlite,
    storage,
    sessions,
    tape,
    llm: {
      coreStream: (request, signal) => llmProviders.coreStream(request, signal),
      getDefaultModel: () => llmProviders.getDefaultModel(),
      modelLimits: modelLimitsFrom(llmProviders)
    },
    tools,
    permissions,
    acp,
    events,
    log,
    autoTitle: () => config.getSettings().autoTitle,
    attachments,
    newChatSetup: (assistantId) => {
      const start = library.chatStart(assistantId)
      const assistant = start.assistant
      return {
        model: start.model,
        generationSettings: start.generationSettings,
        apply: assistant
          ? (sessionId) => {
              agentState.update(sessionId, { disabledTools: assistant.disabledTools })
              agentState.setDisabledMcpServers(sessionId, assistant.disabledMcpServers)
            }
          : undefined
      }
    },
    workspaces: {
      forNewChat: (requested) =>
        newChatWorkspace(requested, config.getSettings().defaultWorkspaceDir, workspaces),
      ensure: (path) => workspaces.ensure(path)
    }
  })
  runtimePort.attachPlanSink((snapshot) => agentRuntime.publishPlan(snapshot))
  // Before any recovery: what recovery changes reaches the other presenters too.
  const unhook = wireLifecycle({ sessions, agentRuntime, permissions, tools, subagents, acp })
  // Messages cut off by a crash become `error` with their partial text; paused ones stay answerable.
  agentRuntime.recoverOnStart()
  // Subagent runs the app closed on carry on (their children's messages were just recovered).
  subagents.attachChat(agentRuntime)
  subagents.recoverOnStart()

  let disposed = false
  return {
    platform,
    events,
    sqlite,
    storage,
    config,
    llmProviders,
    tape,
    sessions,
    workspaces,
    permissions,
    sandbox,
    tools,
    mcp,
    agentRuntime,
    memory,
    skills,
    subagents,
    acp,
    sessionSettings,
    attachments,
    library,
    drafts: new DraftStore({
      db: sqlite.db,
      requireSession: (id) => sessions.require(id),
      attachments: attachments.store
    }),
    checkpoints: new CheckpointPresenter({
      sqlite,
      tape,
      sessions,
      messages: {
        require: (id) => sessions.messages.require(id),
        since: (sessionId, orderSeq) => messagesSince(sessions.messages, sessionId, orderSeq)
      },
      preview: {
        interactions: sessions.interactions,
        sessions,
        files,
        sessionDataDir: (sessionId) => tools.sessionDataDir(sessionId)
      }
    }),
    data: new DataPresenter({
      sessions,
      attachments,
      backup: {
        db: sqlite.db,
        dataDir: platform.userDataDir,
        secretsFile: platform.secretsFile,
        appVersion: platform.appVersion,
        folder: backupFolder,
        nativeBinding: platform.sqliteNativeBinding
      },
      autoBackups: backups
    }),
    backups,
    async dispose() {
      if (disposed) return
      disposed = true
      unhook()
      subagents.dispose() // runs detach; they resume at the next start
      await agentRuntime.dispose()
      await acp.dispose()
      await mcp.dispose()
      await tools.dispose()
      tape.dispose()
      backups.dispose()
      storage.dispose()
      sqlite.close()
    }
  }
}

/**
 * Presenters hear of each other's lifecycle only through these hooks (no presenter listens to the
 * renderer's event hub). Returns a function that removes them all.
 */
function wireLifecycle(p: {
  sessions: SessionPresenter
  agentRuntime: AgentRuntimePresenter
  permissions: PermissionPresenter
  tools: ToolPresenter
  subagents: SubagentPresenter
  acp: AcpPresenter
}): () => void {
  const { sessions, agentRuntime, permissions, tools, subagents, acp } = p
  const hooks = [
    // A deleted session takes its run, grants, tool mapping, processes, agent sessions and subagent runs with it.
    sessions.onPurged((sessionIds) => {
      for (const id of sessionIds) {
        agentRuntime.forgetSession(id)
        permissions.clearSession(id)
        void tools.purgeSession(id)
        void acp.forgetChat(id)
      }
      subagents.sessionsPurged(sessionIds)
    }),
    // A stopped parent stops the subagent runs it started.
    agentRuntime.onStopped((sessionId) => subagents.sessionStopped(sessionId)),
    // A subagent task follows its child session through pauses, answers and streaming.
    sessions.onStatusChanged(({ sessionId }) => subagents.sessionChanged(sessionId)),
    sessions.onInteractionsChanged(({ sessionId }) => subagents.sessionChanged(sessionId)),
    agentRuntime.onStreamed((sessionId) => subagents.sessionStreamed(sessionId))
  ]
  return () => {
    for (const remove of hooks) remove()
  }
}

/**
 * ACP agents get their own terminal process manager (their commands are not the chat's `exec`
 * processes), the same permission services and gate as tools, and the chat's enabled MCP servers.
 */
function createAcpPresenter(parts: {
  platform: Platform
  sqlite: SqlitePresenter
  config: ConfigPresenter
  events: EventHub
  shellEnv: () => Promise<Record<string, string>>
  hygiene: ReturnType<typeof startProcessHygiene>
  sandbox: Sandbox
  permissions: PermissionPresenter
  mcp: McpPresenter
  agentState: SessionAgentStateStore
  appData: AppDataBoundary
  log: (message: string) => void
}): AcpPresenter {
  const { platform, shellEnv, hygiene, sandbox, log } = parts
  return new AcpPresenter({
    config: parts.config,
    sqlite: parts.sqlite,
    events: parts.events,
    shellEnv,
    clientInfo: { name: platform.appName, version: platform.appVersion },
    files: new FilePermissionService(homedir(), { appData: parts.appData }),
    commands: new CommandPermissionService({ appData: parts.appData }),
    processes: new BackgroundProcessManager({
      baseEnv: shellEnv,
      allowedVariables: () => parts.config.getSettings().allowedEnvVariables,
      sandbox,
      groups: hygiene.groups,
      log
    }),
    sandbox,
    sessionDataRoot: join(platform.userDataDir, 'sessions'),
    gate: parts.permissions,
    groups: hygiene.groups,
    // The servers this chat has on (its Tools switches) that are healthy now.
    mcpServersForAgents: async (chatSessionId) => {
      const off = new Set(parts.agentState.disabledMcpServers(chatSessionId))
      return (await parts.mcp.runningServerConfigs()).filter((s) => !off.has(s.id))
    },
    log
  })
}
