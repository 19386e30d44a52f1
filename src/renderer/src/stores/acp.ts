import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import {
  acpAddAgent,
  acpCheckInstall,
  acpGetSession,
  acpList,
  acpProtocolLog,
  acpRemoveAgent,
  acpSetEnabled,
  acpSetEnvOverrides,
  acpSetSessionMode,
  acpSetSessionModel,
  acpStopAgent,
  acpUpdateAgent
} from '@shared/contracts/routes/acp.routes'
import { acpAgentChanged, acpLogAppended, acpSessionChanged } from '@shared/contracts/events/acp.events'
import type {
  AcpAgentView,
  AcpCustomAgentInput,
  AcpCustomAgentPatch,
  AcpInstallState,
  AcpLogEntry,
  AcpSessionState
} from '@shared/types/acp'
import { useBridge } from '@renderer/api/bridge'
import { useLoadState } from './lib/loadState'
import { plain } from './lib/plain'

/** How many protocol log entries per agent the page keeps (main keeps 500). */
const LOG_LIMIT = 500

/**
 * ACP agents as main reports them (secrets masked), their install state, protocol logs the
 * page asked for, and chats' sessions with them (modes, models, slash commands). Main pushes
 * every change; nothing here polls.
 */
export const useAcpStore = defineStore('acp', () => {
  const agents = ref<AcpAgentView[]>([])
  const install = ref<Record<string, AcpInstallState>>({})
  const logs = ref<Record<string, AcpLogEntry[]>>({})
  /** Keyed `${chatSessionId}\0${agentId}`. */
  const sessions = ref<Record<string, AcpSessionState | null>>({})
  const { error, loaded, track } = useLoadState()
  const unsubscribers: Array<() => void> = []

  const enabledAgents = computed(() => agents.value.filter((a) => a.enabled))
  const sessionKey = (chatSessionId: string, agentId: string) => `${chatSessionId}\u0000${agentId}`

  function replace(agentId: string, agent: AcpAgentView | null): void {
    if (!agent) {
      agents.value = agents.value.filter((a) => a.id !== agentId)
      return
    }
    const index = agents.value.findIndex((a) => a.id === agentId)
    agents.value =
      index === -1 ? [...agents.value, agent] : agents.value.map((a) => (a.id === agentId ? agent : a))
  }

  function subscribe(): void {
    if (unsubscribers.length) return
    const bridge = useBridge()
    unsubscribers.push(
      bridge.on(acpAgentChanged, ({ agentId, agent }) => replace(agentId, agent)),
      bridge.on(acpLogAppended, ({ agentId, entries }) => {
        // Only logs the page has opened are kept up to date.
        const known = logs.value[agentId]
        if (!known) return
        const last = known.at(-1)?.seq ?? 0
        const fresh = entries.filter((e) => e.seq > last)
        logs.value = { ...logs.value, [agentId]: [...known, ...fresh].slice(-LOG_LIMIT) }
      }),
      bridge.on(acpSessionChanged, ({ state }) => {
        sessions.value = { ...sessions.value, [sessionKey(state.chatSessionId, state.agentId)]: state }
      })
    )
  }

  async function load(): Promise<void> {
    subscribe()
    await track(async () => {
      agents.value = (await useBridge().call(acpList, {})).agents
    })
  }

  /** Loads once (the model picker and the chat bar need the list, not a fresh copy each time). */
  async function ensureLoaded(): Promise<void> {
    if (!loaded.value) await load()
  }

  async function setEnabled(agentId: string, enabled: boolean): Promise<void> {
    replace(agentId, (await useBridge().call(acpSetEnabled, { agentId, enabled })).agent)
  }

  async function add(agent: AcpCustomAgentInput): Promise<AcpAgentView> {
    const view = (await useBridge().call(acpAddAgent, plain({ agent }))).agent
    replace(view.id, view)
    return view
  }

  async function update(agentId: string, patch: AcpCustomAgentPatch): Promise<AcpAgentView> {
    const view = (await useBridge().call(acpUpdateAgent, plain({ agentId, patch }))).agent
    replace(agentId, view)
    return view
  }

  async function remove(agentId: string): Promise<void> {
    await useBridge().call(acpRemoveAgent, { agentId })
    replace(agentId, null)
  }

  async function setEnvOverrides(agentId: string, env: Record<string, string>): Promise<void> {
    replace(agentId, (await useBridge().call(acpSetEnvOverrides, plain({ agentId, env }))).agent)
  }

  async function checkInstall(agentId?: string): Promise<void> {
    const { results } = await useBridge().call(acpCheckInstall, agentId ? { agentId } : {})
    install.value = { ...install.value, ...Object.fromEntries(results.map((r) => [r.agentId, r.install])) }
  }

  async function stop(agentId: string): Promise<void> {
    replace(agentId, (await useBridge().call(acpStopAgent, { agentId })).agent)
  }

  /** Reads an agent's protocol log; later entries arrive by event while it stays open. */
  async function loadLog(agentId: string): Promise<void> {
    subscribe()
    const { entries } = await useBridge().call(acpProtocolLog, { agentId, limit: LOG_LIMIT })
    logs.value = { ...logs.value, [agentId]: entries }
  }

  function closeLog(agentId: string): void {
    const { [agentId]: _closed, ...rest } = logs.value
    logs.value = rest
  }

  function sessionOf(chatSessionId: string, agentId: string): AcpSessionState | null {
    return sessions.value[sessionKey(chatSessionId, agentId)] ?? null
  }

  async function loadSession(chatSessionId: string, agentId: string): Promise<void> {
    subscribe()
    const { state } = await useBridge().call(acpGetSession, { chatSessionId, agentId })
    const key = sessionKey(chatSessionId, agentId)
    // An event may have brought a newer state meanwhile; a null read does not undo it.
    if (state || !(key in sessions.value)) sessions.value = { ...sessions.value, [key]: state }
  }

  async function setMode(chatSessionId: string, agentId: string, modeId: string): Promise<void> {
    const { state } = await useBridge().call(acpSetSessionMode, { chatSessionId, agentId, modeId })
    sessions.value = { ...sessions.value, [sessionKey(chatSessionId, agentId)]: state }
  }

  async function setModel(chatSessionId: string, agentId: string, modelId: string): Promise<void> {
    const { state } = await useBridge().call(acpSetSessionModel, { chatSessionId, agentId, modelId })
    sessions.value = { ...sessions.value, [sessionKey(chatSessionId, agentId)]: state }
  }

  function dispose(): void {
    unsubscribers.splice(0).forEach((off) => off())
  }

  return {
    agents,
    enabledAgents,
    install,
    logs,
    error,
    loaded,
    load,
    ensureLoaded,
    setEnabled,
    add,
    update,
    remove,
    setEnvOverrides,
    checkInstall,
    stop,
    loadLog,
    closeLog,
    sessionOf,
    loadSession,
    setMode,
    setModel,
    dispose
  }
})
