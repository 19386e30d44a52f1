import type { SessionConfigOption, SessionModeState, SessionUpdate } from '@agentclientprotocol/sdk'
import type { AcpSessionState, AcpTurnEvent } from '@shared/types/acp'
import type { PermissionMode } from '@shared/types/permission'
import type { AgentRequestContext } from './authority'
import type { AcpTurn } from './turn'
import { commandList, configOptionList, modelState, modeState, turnEvents } from './updateMapper'

/** What `session/new`, `session/load` and `session/resume` answer with. */
export interface SessionSetup {
  modes?: SessionModeState | null
  configOptions?: SessionConfigOption[] | null
  /** The older `models` field (agents on earlier SDKs). */
  models?: unknown
}

/**
 * One chat's session with an agent inside a running process: its modes, models, commands and
 * config options (kept for the UI), the turn in flight, and the permission mode its requests
 * are judged in.
 */
export class AcpSession {
  turn: AcpTurn | null = null
  /** The mode of the last turn: requests between turns are judged in it (and cannot ask). */
  permissionMode: PermissionMode = 'default'
  private current: AcpSessionState
  private legacyModels: unknown

  constructor(
    readonly chatSessionId: string,
    readonly agentId: string,
    readonly sessionId: string,
    readonly workspaceDir: string,
    readonly sessionDataDir: string,
    private readonly onChange: (state: AcpSessionState) => void
  ) {
    this.current = {
      chatSessionId,
      agentId,
      sessionId,
      workspaceDir,
      modes: null,
      models: null,
      commands: [],
      configOptions: [],
      title: null
    }
  }

  get state(): AcpSessionState {
    return this.current
  }

  context(): AgentRequestContext {
    return {
      chatSessionId: this.chatSessionId,
      agentId: this.agentId,
      workspaceDir: this.workspaceDir,
      sessionDataDir: this.sessionDataDir,
      permissionMode: this.turn?.permissionMode ?? this.permissionMode,
      turn: this.turn
    }
  }

  /** Takes what a session setup answered: modes, config options, models. */
  adopt(setup: SessionSetup): void {
    this.legacyModels = setup.models ?? this.legacyModels
    const configOptions = setup.configOptions
      ? configOptionList(setup.configOptions)
      : this.current.configOptions
    this.change({
      modes: modeState(setup.modes) ?? this.current.modes,
      configOptions,
      models: modelState(configOptions, this.legacyModels)
    })
  }

  /** A mode or model we set ourselves (the agent does not always echo it). */
  setCurrentMode(modeId: string): void {
    if (!this.current.modes) return
    this.change({ modes: { ...this.current.modes, currentModeId: modeId } })
    this.turn?.push([{ type: 'mode', modes: this.current.modes! }])
  }

  setLegacyModel(modelId: string): void {
    const legacy = this.legacyModels as { currentModelId?: string } | undefined
    if (legacy) this.legacyModels = { ...legacy, currentModelId: modelId }
    this.change({ models: modelState(this.current.configOptions, this.legacyModels) })
  }

  setConfigOptions(options: SessionConfigOption[]): void {
    this.applyConfig(configOptionList(options))
  }

  /** One `session/update`: session state first, then the turn's events (none between turns). */
  apply(update: SessionUpdate): void {
    const events: AcpTurnEvent[] = []
    switch (update.sessionUpdate) {
      case 'current_mode_update':
        if (this.current.modes) {
          this.change({ modes: { ...this.current.modes, currentModeId: update.currentModeId } })
          events.push({ type: 'mode', modes: this.current.modes! })
        }
        break
      case 'available_commands_update':
        this.change({ commands: commandList(update.availableCommands) })
        events.push({ type: 'commands', commands: this.current.commands })
        break
      case 'config_option_update':
        events.push(...this.applyConfig(configOptionList(update.configOptions)))
        break
      case 'session_info_update':
        if (update.title !== undefined) {
          this.change({ title: update.title ?? null })
          events.push({ type: 'session_info', title: this.current.title })
        }
        break
      default:
        // History replayed by session/load arrives between turns: it is not this turn's output.
        if (this.turn) events.push(...turnEvents(update, this.turn.tools))
    }
    this.turn?.push(events)
  }

  private applyConfig(configOptions: AcpSessionState['configOptions']): AcpTurnEvent[] {
    const models = modelState(configOptions, this.legacyModels)
    this.change({ configOptions, models })
    const events: AcpTurnEvent[] = [{ type: 'config', options: configOptions }]
    if (models) events.push({ type: 'models', models })
    return events
  }

  private change(patch: Partial<AcpSessionState>): void {
    this.current = { ...this.current, ...patch }
    this.onChange(this.current)
  }
}
