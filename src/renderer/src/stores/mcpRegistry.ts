import { defineStore } from 'pinia'
import { ref } from 'vue'
import {
  mcpRegistryGetSettings,
  mcpRegistryInstall,
  mcpRegistryList,
  mcpRegistryUpdateSettings
} from '@shared/contracts/routes/mcpRegistry.routes'
import type { RouteOutput } from '@shared/contracts/define'
import type { McpRegistryListedServer, McpRegistryPage, McpRegistryTarget } from '@shared/types/mcpRegistry'
import type { McpServerView } from '@shared/types/mcp'
import { useBridge } from '@renderer/api/bridge'

export type McpRegistrySettingsView = RouteOutput<typeof mcpRegistryGetSettings>['settings']

/**
 * Settings › MCP › Browse registry: the registry's pages for the current search (appended as
 * the user asks for more) and the registry settings. An answer for an older search is dropped,
 * so typing fast never shows a stale list.
 */
export const useMcpRegistryStore = defineStore('mcpRegistry', () => {
  const settings = ref<McpRegistrySettingsView | null>(null)
  const servers = ref<McpRegistryListedServer[]>([])
  /** The newest page's status: its cursor, live or cached, when fetched, why offline. */
  const page = ref<Omit<McpRegistryPage, 'servers'> | null>(null)
  const search = ref('')
  let asked = 0

  async function loadSettings(): Promise<McpRegistrySettingsView> {
    settings.value = (await useBridge().call(mcpRegistryGetSettings, {})).settings
    return settings.value
  }

  async function saveUrl(url: string): Promise<void> {
    settings.value = (await useBridge().call(mcpRegistryUpdateSettings, { url })).settings
    await list(search.value)
  }

  /** The first page for `query`; an older query still in flight is ignored when it lands. */
  async function list(query: string): Promise<void> {
    const mine = ++asked
    search.value = query
    const result = await useBridge()
      .call(mcpRegistryList, { search: query || undefined })
      .catch((error: unknown) => {
        if (mine === asked) {
          servers.value = []
          page.value = null
        }
        throw error
      })
    if (mine !== asked) return
    const { servers: found, ...rest } = result.page
    servers.value = found
    page.value = rest
  }

  async function more(): Promise<void> {
    const cursor = page.value?.nextCursor
    if (!cursor) return
    const mine = asked
    const result = await useBridge().call(mcpRegistryList, { search: search.value || undefined, cursor })
    if (mine !== asked) return
    const { servers: found, ...rest } = result.page
    const known = new Set(servers.value.map((s) => `${s.name}@${s.version}`))
    servers.value = [...servers.value, ...found.filter((s) => !known.has(`${s.name}@${s.version}`))]
    page.value = { ...rest, refused: [...(page.value?.refused ?? []), ...rest.refused] }
  }

  async function install(
    server: McpRegistryListedServer,
    target: McpRegistryTarget,
    values: Record<string, string>
  ): Promise<McpServerView> {
    const installed = (
      await useBridge().call(mcpRegistryInstall, {
        name: server.name,
        version: server.version,
        target,
        values
      })
    ).server
    servers.value = servers.value.map((s) =>
      s.name === server.name ? { ...s, installedAs: installed.id } : s
    )
    return installed
  }

  return { settings, servers, page, search, loadSettings, saveUrl, list, more, install }
})
