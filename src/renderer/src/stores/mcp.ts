import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import {
  mcpAdd,
  mcpCallTool,
  mcpExportJson,
  mcpGetPrompt,
  mcpImportJson,
  mcpList,
  mcpListPrompts,
  mcpListResources,
  mcpListTools,
  mcpOAuthSignOut,
  mcpOAuthState,
  mcpReadResource,
  mcpRemove,
  mcpRestart,
  mcpStart,
  mcpSetEnabled,
  mcpUpdate
} from '@shared/contracts/routes/mcp.routes'
import {
  mcpCatalogChanged,
  mcpConfigChanged,
  mcpServerStatusChanged
} from '@shared/contracts/events/mcp.events'
import type {
  McpServerInput,
  McpServerPatch,
  McpServerStatus,
  McpServerView,
  McpToolView
} from '@shared/types/mcp'
import { useBridge } from '@renderer/api/bridge'
import { useLoadState } from './lib/loadState'
import { plain } from './lib/plain'

/**
 * MCP servers with their live status. Main pushes every status change, so nothing here polls;
 * a status event older than what we hold is ignored.
 */
export const useMcpStore = defineStore('mcp', () => {
  const servers = ref<McpServerView[]>([])
  const tools = ref<Record<string, McpToolView[]>>({})
  const { error, loaded, track } = useLoadState()
  const unsubscribers: Array<() => void> = []

  const counts = computed(() => ({
    total: servers.value.length,
    running: servers.value.filter((s) => s.status.state === 'running').length,
    error: servers.value.filter((s) => s.status.state === 'error').length
  }))

  function applyStatus(status: McpServerStatus): void {
    // A server we have not listed yet (seeded or added elsewhere): re-read the list.
    if (!servers.value.some((s) => s.id === status.serverId)) {
      void refresh()
      return
    }
    servers.value = servers.value.map((s) =>
      s.id === status.serverId && status.updatedAt >= s.status.updatedAt ? { ...s, status } : s
    )
  }

  function subscribe(): void {
    if (unsubscribers.length) return
    const bridge = useBridge()
    unsubscribers.push(
      bridge.on(mcpServerStatusChanged, ({ status }) => applyStatus(status)),
      bridge.on(mcpConfigChanged, () => void refresh()),
      bridge.on(mcpCatalogChanged, ({ serverId, kinds }) => {
        if (!kinds.includes('tools')) return
        if (tools.value[serverId]) void loadTools(serverId)
        // The card lists tools left out of the new list (McpServerView.skippedTools).
        void refresh()
      })
    )
  }

  // A list that left main before a status event we already hold must not take the status back.
  const newerStatus = (listed: McpServerView): McpServerView => {
    const held = servers.value.find((s) => s.id === listed.id)
    return held && held.status.updatedAt > listed.status.updatedAt
      ? { ...listed, status: held.status }
      : listed
  }

  const refresh = () =>
    track(async () => {
      servers.value = (await useBridge().call(mcpList, {})).servers.map(newerStatus)
    })

  async function load(): Promise<void> {
    subscribe()
    await refresh()
  }

  function replace(view: McpServerView): McpServerView {
    const exists = servers.value.some((s) => s.id === view.id)
    servers.value = exists
      ? servers.value.map((s) => (s.id === view.id ? view : s))
      : [...servers.value, view]
    return view
  }

  const call = useBridge
  const add = async (server: McpServerInput) => replace((await call().call(mcpAdd, plain({ server }))).server)
  const update = async (serverId: string, patch: McpServerPatch) =>
    replace((await call().call(mcpUpdate, plain({ serverId, patch }))).server)
  const setEnabled = async (serverId: string, enabled: boolean) =>
    replace((await call().call(mcpSetEnabled, plain({ serverId, enabled }))).server)
  const restart = async (serverId: string) =>
    replace((await call().call(mcpRestart, plain({ serverId }))).server)

  async function remove(serverId: string): Promise<void> {
    await call().call(mcpRemove, plain({ serverId }))
    servers.value = servers.value.filter((s) => s.id !== serverId)
    const { [serverId]: _gone, ...rest } = tools.value
    tools.value = rest
  }

  async function loadTools(serverId: string): Promise<McpToolView[]> {
    const list = (await call().call(mcpListTools, plain({ serverId }))).tools
    tools.value = { ...tools.value, [serverId]: list }
    return list
  }

  /** Switches one tool on/off or its auto-approval, through the server's config. */
  async function setToolFlag(
    serverId: string,
    toolName: string,
    flag: 'disabled' | 'autoApproved',
    value: boolean
  ): Promise<void> {
    const server = servers.value.find((s) => s.id === serverId)
    if (!server) return
    const key = flag === 'disabled' ? 'disabledTools' : 'autoApproveTools'
    const others = server[key].filter((name) => name !== toolName)
    await update(serverId, { [key]: value ? [...others, toolName] : others })
    await loadTools(serverId)
  }

  /** `allowOnce`: the user approved this one call on the panel's approval card. */
  const callTool = async (
    serverId: string,
    toolName: string,
    args: Record<string, unknown>,
    options: { allowOnce?: boolean } = {}
  ) =>
    (
      await call().call(
        mcpCallTool,
        plain({ serverId, toolName, args, ...(options.allowOnce ? { allowOnce: true as const } : {}) })
      )
    ).result
  const listPrompts = async (serverId: string) =>
    (await call().call(mcpListPrompts, plain({ serverId }))).prompts
  const getPrompt = async (serverId: string, name: string, args: Record<string, string>) =>
    (await call().call(mcpGetPrompt, plain({ serverId, name, args }))).prompt
  const listResources = (serverId: string) => call().call(mcpListResources, plain({ serverId }))
  const readResource = async (serverId: string, uri: string) =>
    (await call().call(mcpReadResource, plain({ serverId, uri }))).contents

  async function importJson(json: string) {
    const result = await call().call(mcpImportJson, plain({ json }))
    for (const server of result.imported) replace(server)
    return result
  }

  const oauthState = async (serverId: string) => (await call().call(mcpOAuthState, plain({ serverId }))).oauth
  /** Signing in happens while connecting: main opens the provider's page in the browser. */
  const oauthSignIn = async (serverId: string) => {
    const server = servers.value.find((s) => s.id === serverId)
    return replace(
      (await call().call(server?.status.state === 'stopped' ? mcpStart : mcpRestart, plain({ serverId })))
        .server
    )
  }
  async function oauthSignOut(serverId: string) {
    const out = await call().call(mcpOAuthSignOut, plain({ serverId }))
    replace(out.server)
    return out.oauth
  }
  const exportJson = async () => (await call().call(mcpExportJson, plain({ includeSecrets: false }))).json

  function dispose(): void {
    unsubscribers.splice(0).forEach((off) => off())
  }

  return {
    servers,
    tools,
    error,
    loaded,
    counts,
    load,
    refresh,
    add,
    update,
    setEnabled,
    restart,
    remove,
    loadTools,
    setToolFlag,
    callTool,
    listPrompts,
    getPrompt,
    listResources,
    readResource,
    importJson,
    exportJson,
    oauthState,
    oauthSignIn,
    oauthSignOut,
    dispose
  }
})
