import { AppError } from '@shared/errors'
import type { AgentToolInfo } from '@shared/types/agentTools'
import type { Settings, SettingsPatch } from '@shared/types/settings'
import type { AgentToolManager } from './agentTools/agentToolManager'

/** The part of ConfigPresenter the agent-tool settings need. */
export interface AgentToolSettingsStore {
  getSettings(): Settings
  updateSettings(patch: SettingsPatch): Settings
}

export interface AgentToolSettingsView {
  tools: AgentToolInfo[]
}

export function agentToolSettings(
  manager: Pick<AgentToolManager, 'catalog'>,
  store: AgentToolSettingsStore
): AgentToolSettingsView {
  const settings = store.getSettings()
  const off = new Set(settings.disabledAgentTools)
  return {
    tools: manager.catalog().map((tool) => ({ ...tool, enabled: !off.has(tool.name) }))
  }
}

export function setAgentToolEnabled(
  manager: Pick<AgentToolManager, 'catalog'>,
  store: AgentToolSettingsStore,
  name: string,
  enabled: boolean
): AgentToolSettingsView {
  if (!manager.catalog().some((tool) => tool.name === name))
    throw new AppError('not_found', `There is no built-in tool "${name}"`)
  const others = store.getSettings().disabledAgentTools.filter((n) => n !== name)
  store.updateSettings({ disabledAgentTools: enabled ? others : [...others, name] })
  return agentToolSettings(manager, store)
}
