import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js'
import type { CatalogKind, McpClient } from './mcpClient'
import type { McpSkippedTool } from '@shared/types/mcp'

export interface ServerCatalog {
  tools: Tool[]
  /** Tools left out because their definition is broken, each with why. */
  skippedTools: McpSkippedTool[]
  prompts: Prompt[]
  resources: Resource[]
  resourceTemplates: ResourceTemplate[]
  /** Why a list could not be fetched; the last good list is kept meanwhile. */
  errors: Partial<Record<CatalogKind, string>>
}

const EMPTY: ServerCatalog = {
  tools: [],
  skippedTools: [],
  prompts: [],
  resources: [],
  resourceTemplates: [],
  errors: {}
}

/**
 * A burst of `list_changed` notifications is answered by one re-list after it settles: the
 * first waits this long, and while a re-list runs, further notifications only mark it dirty.
 */
export const LIST_CHANGED_DEBOUNCE_MS = 250

/**
 * The cached tools, prompts, resources and templates of every running server. Filled when a
 * server connects, refreshed on its `list_changed` notifications, dropped when it disconnects.
 */
export class ToolManager {
  private readonly catalogs = new Map<string, ServerCatalog>()
  /** Per server and kind: the refresh in flight, so a burst of notifications fetches once more at most. */
  private readonly refreshing = new Map<string, Promise<void>>()
  private readonly dirty = new Set<string>()
  /** Servers whose first listing is in flight, with the kinds that changed meanwhile. */
  private readonly loading = new Map<string, Set<CatalogKind>>()

  constructor(
    private readonly onChanged: (serverId: string, kinds: CatalogKind[]) => void = () => {},
    private readonly debounceMs = LIST_CHANGED_DEBOUNCE_MS
  ) {}

  catalog(serverId: string): ServerCatalog {
    return this.catalogs.get(serverId) ?? EMPTY
  }

  /** Whether the server's first listing arrived (and it has not disconnected since). */
  has(serverId: string): boolean {
    return this.catalogs.has(serverId)
  }

  async load(serverId: string, client: McpClient): Promise<void> {
    const catalog: ServerCatalog = { ...EMPTY, skippedTools: [], errors: {} }
    this.loading.set(serverId, new Set())
    await Promise.all(
      (['tools', 'prompts', 'resources'] as const).map((kind) => this.fetchInto(catalog, kind, client))
    )
    const changedMeanwhile = this.loading.get(serverId)
    if (!changedMeanwhile) return // the server went away while its lists were in flight
    this.loading.delete(serverId)
    this.catalogs.set(serverId, catalog)
    this.onChanged(serverId, ['tools', 'prompts', 'resources'])
    // A list_changed that arrived while the first lists were in flight may describe a newer list.
    await Promise.all([...changedMeanwhile].map((kind) => this.refresh(serverId, client, kind)))
  }

  refresh(serverId: string, client: McpClient, kind: CatalogKind): Promise<void> {
    const key = `${serverId}:${kind}`
    const inFlight = this.refreshing.get(key)
    if (inFlight) {
      this.dirty.add(key)
      return inFlight
    }
    const loading = this.loading.get(serverId)
    if (loading) {
      loading.add(kind)
      return Promise.resolve()
    }
    const catalog = this.catalogs.get(serverId)
    if (!catalog) return Promise.resolve()
    const run = (async () => {
      do {
        // Notifications during the wait are covered by the list fetched after it.
        await new Promise((resolve) => setTimeout(resolve, this.debounceMs))
        this.dirty.delete(key)
        if (this.catalogs.get(serverId) !== catalog) return // disconnected or reconnected meanwhile
        await this.fetchInto(catalog, kind, client)
        if (this.catalogs.get(serverId) !== catalog) return
        this.onChanged(serverId, [kind])
      } while (this.dirty.has(key))
    })().finally(() => this.refreshing.delete(key))
    this.refreshing.set(key, run)
    return run
  }

  drop(serverId: string): void {
    this.loading.delete(serverId)
    if (this.catalogs.delete(serverId)) this.onChanged(serverId, ['tools', 'prompts', 'resources'])
  }

  private async fetchInto(catalog: ServerCatalog, kind: CatalogKind, client: McpClient): Promise<void> {
    try {
      if (kind === 'tools') {
        const { tools, skipped } = await client.listTools()
        catalog.tools = tools
        catalog.skippedTools = skipped
      } else if (kind === 'prompts') catalog.prompts = await client.listPrompts()
      else {
        const [resources, templates] = await Promise.all([
          client.listResources(),
          client.listResourceTemplates()
        ])
        catalog.resources = resources
        catalog.resourceTemplates = templates
      }
      delete catalog.errors[kind]
    } catch (error) {
      catalog.errors[kind] = error instanceof Error ? error.message : String(error)
    }
  }
}
