import { statSync } from 'node:fs'
import { isAbsolute, normalize } from 'node:path'
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
  defaultWorkspaceDir: string
}

export function agentToolSettings(manager: Pick<AgentToolManager, 'catalog'>, store: AgentToolSettingsStore): AgentToolSettingsView {
  const settings = store.getSettings()
  const off = new Set(settings.disabledAgentTools)
  return {
    tools: manager.catalog().map((tool) => ({ ...tool, enabled: !off.has(tool.name) })),
    defaultWorkspaceDir: settings.defaultWorkspaceDir
  }
}

export function setAgentToolEnabled(
  manager: Pick<AgentToolManager, 'catalog'>,
  store: AgentToolSettingsStore,
  name: string,
  enabled: boolean
): AgentToolSettingsView {
  if (!manager.catalog().some((tool) => tool.name === name)) throw new AppError('not_found', `There is no built-in tool "${name}"`)
  const others = store.getSettings().disabledAgentTools.filter((n) => n !== name)
  store.updateSettings({ disabledAgentTools: enabled ? others : [...others, name] })
  return agentToolSettings(manager, store)
}

/** Accepts only an absolute path to an existing directory (or '' to clear), so sessions never start in a missing folder. */
export function setDefaultWorkspace(
  manager: Pick<AgentToolManager, 'catalog'>,
  store: AgentToolSettingsStore,
  path: string
): AgentToolSettingsView {
  const trimmed = path.trim()
  if (trimmed === '') {
    store.updateSettings({ defaultWorkspaceDir: '' })
    return agentToolSettings(manager, store)
  }
  if (!isAbsolute(trimmed)) throw new AppError('invalid_workspace', `The workspace folder must be an absolute path: ${trimmed}`)
  const folder = normalize(trimmed)
  const stats = statSync(folder, { throwIfNoEntry: false })
  if (!stats) throw new AppError('invalid_workspace', `The folder does not exist: ${folder}`)
  if (!stats.isDirectory()) throw new AppError('invalid_workspace', `Not a folder: ${folder}`)
  store.updateSettings({ defaultWorkspaceDir: folder })
  return agentToolSettings(manager, store)
}
