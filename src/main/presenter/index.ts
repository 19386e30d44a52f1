import { join } from 'node:path'
import { ACP_PROVIDER_ID } from '@shared/types/acp'
import type { Platform } from '../platform/types'
import { EventHub } from '../bridge/events'
import type { SqlitePresenter } from './sqlitePresenter'
import type { StorageGuard } from './sqlitePresenter/storageGuard'
import type { ConfigPresenter } from './configPresenter'
import { LlmProviderPresenter } from './llmProviderPresenter'
import { TapePresenter } from './tapePresenter'
import { SessionPresenter } from './sessionPresenter'
import { DataPresenter } from './dataPresenter'
import type { AutoBackups } from './dataPresenter/autoBackup'
import type { Workspaces } from './sessionPresenter/workspaces'
import { SessionSettings } from './sessionPresenter/settings'
import { ModelChatSettings } from './sessionPresenter/modelSettings'
import { SessionAgentStateStore } from './sessionPresenter/agentState'
import { PermissionPresenter, PermissionRuleStore, PromptHistory } from './permission'
import type { ToolPresenter } from './toolPresenter'
import { AgentToolManager } from './toolPresenter/agentTools/agentToolManager'
import { Sandbox, sweepLeftoverStubs } from './sandbox'
import { startProcessHygiene } from './hygiene'
import type { McpPresenter } from './mcpPresenter'
import type { AgentRuntimePresenter } from './agentRuntimePresenter'
import { MemoryPresenter } from './memoryPresenter'
import { SkillPresenter } from './skillPresenter'
import { CheckpointPresenter, messagesSince } from './checkpoints'
import { SubagentPresenter } from './subagentPresenter'
import { agentSlot } from './subagentPresenter/agentSlots'
import type { AcpPresenter } from './acpPresenter'
import { AttachmentPresenter } from './attachmentPresenter'
import { LibraryPresenter } from './libraryPresenter'
import { openAppStorage } from './wiring/storage'
import { createMcpPresenter, loginShellEnv } from './wiring/mcp'
import { createAcpPresenter } from './wiring/acp'
import { createToolPresenter } from './wiring/tools'
import type { CommandPreviews } from './commandPreview'
import { createAgentRuntime } from './wiring/chat'
import { wireLifecycle } from './wiring/lifecycle'
import { DraftStore } from './sessionPresenter/drafts'
import { PathGrants } from './pathGrants'
import { NetworkPresenter } from './networkPresenter'
import { WebPresenter } from './webPresenter'
import { KnowledgePresenter } from './knowledgePresenter'
import { ProviderStore } from './llmProviderPresenter/providerStore'
import { COMPARE_SLOT, ComparePresenter } from './comparePresenter'

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
  /** Commands waiting for approval, previewed on a copy of the workspace. */
  commandPreviews: CommandPreviews
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
  /** Folders the user picked: the tokens routes that take a folder from the page redeem. */
  pathGrants: PathGrants
  /** The proxy settings and the one fetch every outgoing request of main goes through. */
  network: NetworkPresenter
  /** Web search with the user's engine and page reads, for web_search and web_fetch. */
  web: WebPresenter
  /** Knowledge bases: indexing in the background, hybrid search for knowledge_search. */
  knowledge: KnowledgePresenter
  /** Whole agent runs of one prompt across models, side by side; the user keeps one. */
  compare: ComparePresenter
  /** Stops background work and closes the database. Safe to call twice. */
  dispose(): Promise<void>
}

export { DATABASE_FILE } from './wiring/storage'

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

/**
 * The composition root: with its factories in `wiring/`, the only place that calls `new` on
 * presenters and hands each one the narrow interfaces it needs, in dependency order.
 */
export function createPresenters(platform: Platform, options: CreatePresentersOptions = {}): Presenters {
  const log = options.log ?? ((message: string) => console.error(message))
  const events = new EventHub(log)
  const { sqlite, storage, config, workspaces, backups, backupFolder } = openAppStorage(platform, {
    events,
    log,
    damagedDatabase: options.damagedDatabase ?? null
  })
  // Reaping of the commands a crashed host left behind.
  const hygiene = startProcessHygiene({ dataDir: platform.userDataDir, log })
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
  const network = new NetworkPresenter({ config, events, log })
  const llmProviders = new LlmProviderPresenter({ config, events, fetch: network.fetch })
  const web = new WebPresenter({ config, fetch: network.fetch, fetchPublic: network.fetchPublic })
  const tape = new TapePresenter({ sqlite })
  const sessions = new SessionPresenter({ sqlite, tape, events, workspaces, log })
  const pathGrants = new PathGrants({
    knownFolders: () => [config.getSettings().defaultWorkspaceDir, ...sessions.workspaceDirs()]
  })
  const knowledge = new KnowledgePresenter({
    db: sqlite.db,
    transaction: (fn) => sqlite.transaction(() => fn()),
    providers: new ProviderStore(config),
    fetch: network.fetch,
    events,
    // Only picks: a folder the page merely names is never a source.
    redeemFolder: (token, clientId) => pathGrants.folderFrom(token, clientId, { known: false }),
    sessionExists: (sessionId) => Boolean(sessions.get(sessionId)),
    excludedFolders: [platform.userDataDir],
    log
  })
  const permissions = new PermissionPresenter({
    rules: new PermissionRuleStore(sqlite),
    history: new PromptHistory(sqlite),
    log
  })
  const shellEnv = loginShellEnv(config, {
    shellEnv: options.shellEnv,
    resolveAtLaunch: options.resolveShellEnvAtLaunch
  })
  // MCP servers and ACP agents connect on their own: they get the proxy as variables (exec does not).
  const serverEnv = async () => ({ ...(await shellEnv()), ...(await network.childProxyEnvironment()) })
  const mcp = createMcpPresenter({
    platform,
    config,
    events,
    shellEnv: serverEnv,
    fetch: network.fetch,
    permissions,
    llmProviders,
    sessions,
    log
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
    shellEnv: serverEnv,
    groups: hygiene.groups,
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
  // The domain's two real cycles are cut by construction order. A subagent run's children take
  // turns on the chat loop that runs its tool: the loop hands itself to each tool call
  // (ToolSessionContext.turns), and recovery hands it over below, so subagents hold no loop.
  // A chat's settings list the tools whose model door they are: the tool registry and the
  // model's door are built before the tools, the user's door (which shows availability) after.
  const subagents = new SubagentPresenter({
    sqlite,
    sessions,
    tape,
    events,
    log,
    agentSlots: () => acp.enabledAgents().map(agentSlot)
  })
  const agentTools = new AgentToolManager()
  const chatSettingsForModel = new ModelChatSettings({
    sqlite,
    sessions,
    state: agentState,
    providers: () => llmProviders.listProviders(),
    agentTools,
    events
  })
  const { tools, runtimePort, files, commandPreviews } = createToolPresenter({
    userDataDir: platform.userDataDir,
    events,
    config,
    llmProviders,
    tape,
    sessions,
    permissions,
    mcp,
    agentState,
    memory,
    skills,
    subagents,
    agentTools,
    chatSettings: chatSettingsForModel.port(),
    sandbox,
    shellEnv,
    web,
    knowledge: knowledge.toolPort(),
    groups: hygiene.groups,
    appData,
    log
  })
  const sessionSettings = new SessionSettings({
    sqlite,
    sessions,
    state: agentState,
    providers: () => llmProviders.listProviders(),
    agentModels: () => acp.enabledAgents().map((a) => ({ providerId: ACP_PROVIDER_ID, modelId: a.id })),
    agentTools,
    toolAvailable: (sessionId, name) => tools.agentToolAvailable(sessionId, name),
    forModel: chatSettingsForModel,
    mcpServers: () => mcp.listServers(),
    workspaceChanged: (sessionId, dir) =>
      void mcp
        .sessionWorkspaceChanged(sessionId, [dir])
        .catch((error: unknown) => log(`roots: ${String(error)}`)),
    validateWorkspace: (path) => workspaces.validate(path),
    events,
    log
  })
  const attachments = new AttachmentPresenter({
    dir: join(platform.userDataDir, 'attachments'),
    readResource: (serverId, uri) => mcp.readResource(serverId, uri)
  })
  const library = new LibraryPresenter({ config })
  const agentRuntime = createAgentRuntime({
    sqlite,
    storage,
    sessions,
    tape,
    llmProviders,
    tools,
    permissions,
    acp,
    events,
    config,
    attachments,
    library,
    web,
    agentState,
    workspaces,
    log
  })
  // Before any recovery: what recovery changes reaches the other presenters too.
  const unhook = wireLifecycle({
    sessions,
    sessionSettings,
    agentRuntime,
    runtimePort,
    permissions,
    tools,
    subagents,
    acp
  })
  // Comparisons run their turns on the chat loop; a killed host's run folders are swept as it starts.
  const compare = new ComparePresenter({
    sessions,
    tape,
    providers: () => llmProviders.listProviders(),
    chat: agentRuntime,
    events,
    scratchRoot: workspaces.scratchRoot,
    baselinesRoot: join(platform.userDataDir, 'compare-baselines'),
    openForks: () =>
      sqlite.db
        .prepare(
          `SELECT t.id FROM sessions s JOIN tapes t ON t.id = s.tape_id
           WHERE s.kind = 'subagent' AND t.fork_status = 'open'
             AND json_extract(s.subagent_meta_json, '$.slotId') = ?`
        )
        .pluck()
        .all(COMPARE_SLOT) as string[],
    log
  })
  const unhookCompare = [
    sessions.onStatusChanged(({ sessionId }) => compare.sessionChanged(sessionId)),
    sessions.onInteractionsChanged(({ sessionId }) => compare.sessionChanged(sessionId)),
    agentRuntime.onStreamed((sessionId) => compare.sessionStreamed(sessionId)),
    sessions.onPurged((sessionIds) => compare.sessionsPurged(sessionIds))
  ]
  // Messages cut off by a crash become `error` with their partial text; paused ones stay answerable.
  agentRuntime.recoverOnStart()
  // Subagent runs the app closed on carry on (their children's messages were just recovered).
  subagents.recoverOnStart(agentRuntime)
  // Bases catch up with their files (a run a crash cut off continues) and are watched.
  knowledge.start()

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
    commandPreviews,
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
    network,
    web,
    pathGrants,
    knowledge,
    compare,
    async dispose() {
      if (disposed) return
      disposed = true
      unhook()
      for (const remove of unhookCompare) remove()
      subagents.dispose() // runs detach; they resume at the next start
      await agentRuntime.dispose()
      await acp.dispose()
      await mcp.dispose()
      await tools.dispose()
      await knowledge.dispose()
      commandPreviews.dispose()
      await network.dispose()
      tape.dispose()
      backups.dispose()
      storage.dispose()
      sqlite.close()
    }
  }
}
